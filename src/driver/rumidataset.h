/*
 * rumi GDAL driver: a thin C++ adapter (GDALPamDataset / GDALPamRasterBand) over the rumi
 * C ABI (include/rumi.h). Everything format-specific happens in Rust; this file only maps the
 * rumi data model onto GDAL's.
 *
 * Compiled into the rumi cdylib by build.rs. Every function that Rust calls is noexcept and
 * catches C++ exceptions itself; every GDAL entry point (Open, IReadBlock) catches them too.
 */
#ifndef RUMI_GDAL_DATASET_H
#define RUMI_GDAL_DATASET_H

#include "gdal_pam.h"
#include "gdal_priv.h"
#include "ogr_spatialref.h"

#include "rumi.h"

#include <memory>
#include <mutex>
#include <string>
#include <vector>

extern "C" void rumi_gdal_register_driver(void) noexcept;

/** The VSI handle a dataset reads through, shared with Rust as rumi_io callbacks. Rust may call
 *  them from any thread, so every call takes the mutex. */
class RUMIVsiSource final
{
  public:
    explicit RUMIVsiSource(VSILFILE *fp) : m_fp(fp)
    {
    }
    ~RUMIVsiSource();
    RUMIVsiSource(const RUMIVsiSource &) = delete;
    RUMIVsiSource &operator=(const RUMIVsiSource &) = delete;

    /** The callbacks, with this object as their context. */
    rumi_io AsIo();

  private:
    VSILFILE *m_fp;
    std::mutex m_mutex{};

    int Read(uint64_t nOffset, size_t nLen, uint8_t *pabyBuf) noexcept;
    int Size(uint64_t *pnSize) noexcept;
    int ReadMulti(size_t nCount, const uint64_t *panOffsets, const size_t *panLens,
                  uint8_t *const *papBufs) noexcept;
    int EofOrError(uint64_t nOffset, size_t nLen) noexcept;

    static int ReadCb(void *ctx, uint64_t offset, size_t len, uint8_t *buf) noexcept;
    static int SizeCb(void *ctx, uint64_t *size) noexcept;
    static int ReadMultiCb(void *ctx, size_t count, const uint64_t *offsets, const size_t *lens,
                           uint8_t *const *bufs) noexcept;
};

class RUMIRasterBand;

/** A rumi file as a GDAL dataset: an Image (B bands), a Cube (T*B bands, time-major, with one
 *  subdataset per time step) or one time step of a Cube (RUMI:"path":t, B bands). */
class RUMIDataset final : public GDALPamDataset
{
    friend class RUMIRasterBand;

  public:
    RUMIDataset() = default;
    ~RUMIDataset() override;

    static int Identify(GDALOpenInfo *poOpenInfo);
    static GDALDataset *Open(GDALOpenInfo *poOpenInfo);

    CPLErr GetGeoTransform(double *padfTransform) override;
    const OGRSpatialReference *GetSpatialRef() const override;
    char **GetFileList() override;

  private:
    std::unique_ptr<RUMIVsiSource> m_poSource{};
    rumi_dataset *m_hRumi = nullptr;
    rumi_info m_sInfo{};
    std::string m_osPath{};   /* the rumi file */
    std::string m_osHeader{}; /* the header blob file, empty when the file was validated */
    int m_nTimeIndex = -1; /* time step of a subdataset, -1 for the whole file */
    uint32_t m_nOutput = RUMI_OUTPUT_NATIVE;
    size_t m_nOutBytes = 0;
    GDALDataType m_eDataType = GDT_Unknown;
    OGRSpatialReference m_oSRS{};
    bool m_bHasSRS = false;
    double m_adfGeoTransform[6] = {0, 1, 0, 0, 0, 1};
    bool m_bHasGeoTransform = false;

    static GDALDataset *OpenImpl(GDALOpenInfo *poOpenInfo);
    bool SetupDataType(bool bPromote, const std::string &osPath);
    void SetupGeoreferencing();
    void SetupMetadata(const std::string &osPath, const std::string &osHeader);
    void FillOtherBands(RUMIRasterBand *poSkip, int nBlockXOff, int nBlockYOff,
                        const rumi_frame *psFrame);
    std::shared_ptr<rumi_frame> GetFrame(uint32_t nRow, uint32_t nCol, uint32_t nBand, uint32_t nTime);
    int BlockXSize() const;
    int BlockYSize() const;
    size_t BlockBytes() const;
    size_t LineStride() const;

    /* The last decoded cell frame (frame units other than 0 and 9), so that bands whose blocks
       FillOtherBands could not cache do not decode the same cell again. */
    std::mutex m_oFrameMutex{};
    std::shared_ptr<rumi_frame> m_poLastFrame{};
    uint32_t m_nLastRow = 0;
    uint32_t m_nLastCol = 0;

    CPL_DISALLOW_COPY_ASSIGN(RUMIDataset)
};

/** One band of one time step. Blocks are the file's tiles; a block read decodes one frame. */
class RUMIRasterBand final : public GDALPamRasterBand
{
    friend class RUMIDataset;

  public:
    RUMIRasterBand(RUMIDataset *poDSIn, int nBandIn, uint32_t nRumiBand, uint32_t nRumiTime);

  protected:
    CPLErr IReadBlock(int nBlockXOff, int nBlockYOff, void *pImage) override;

  private:
    uint32_t m_nRumiBand;
    uint32_t m_nRumiTime;

    CPLErr ReadBlockImpl(int nBlockXOff, int nBlockYOff, void *pImage);
};

#endif /* RUMI_GDAL_DATASET_H */
