/*
 * rumi GDAL driver: the multidimensional view (gdal.OpenEx(path, gdal.OF_MULTIDIM_RASTER)),
 * opened by RUMIDataset::OpenImpl from the open RUMIFile (ARCHITECTURE.md, "The GDAL adapter").
 */
#ifndef RUMI_GDAL_MULTIDIM_H
#define RUMI_GDAL_MULTIDIM_H

#include "rumidataset.h"

#include <memory>
#include <string>

/** The open file and the view of it the arrays show, shared by the dataset, its group and its
 *  arrays. */
struct RUMIMDShared
{
    std::shared_ptr<RUMIFile> poFile{};
    GDALDataType eDataType = GDT_Unknown; /* the array's data type */
    bool bWidenInt8 = false; /* int8 samples shown as Int16 (GDAL < 3.7 has no Int8) */
    uint32_t nTimeOffset = 0; /* first time step shown (a RUMI:"path":t name shows one) */
    uint32_t nTimes = 0;      /* time steps shown */
    GDALDatasetUniquePtr poValues{}; /* a MEM dataset holding the time and band arrays */
};

/** A rumi file in GDAL's multidimensional API: a root group with the array `data`. */
class RUMIMultiDimDataset final : public GDALDataset
{
  public:
    RUMIMultiDimDataset() = default;
    ~RUMIMultiDimDataset() override;

    /** Builds the multidimensional view of a file RUMIFile::Open opened; nTime >= 0 selects
     *  one time step. */
    static GDALDataset *Open(std::shared_ptr<RUMIFile> poFile, int nTime);

    std::shared_ptr<GDALGroup> GetRootGroup() const override
    {
        return m_poRootGroup;
    }

    char **GetFileList() override;

  private:
    std::shared_ptr<RUMIMDShared> m_poShared{};
    std::shared_ptr<GDALGroup> m_poRootGroup{};

    CPL_DISALLOW_COPY_ASSIGN(RUMIMultiDimDataset)
};

#endif /* RUMI_GDAL_MULTIDIM_H */
