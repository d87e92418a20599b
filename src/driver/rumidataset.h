/*
 * rumi GDAL driver: a thin C++ adapter (GDALPamDataset / GDALPamRasterBand) over the rumi C ABI
 * (include/rumi.h) and its private protocol (src/driver/protocol/rumi_gdal.h). Everything
 * format-specific happens in Rust; this file only maps the rumi data model onto GDAL's.
 *
 * Compiled into the rumi cdylib by build.rs. Every function that Rust calls is noexcept and
 * catches C++ exceptions itself; every GDAL entry point that allocates (Open, IRasterIO, IRead)
 * catches them too.
 */
#ifndef RUMI_GDAL_DATASET_H
#define RUMI_GDAL_DATASET_H

#include "gdal_pam.h"
#include "gdal_priv.h"
#include "cpl_string.h"
#include "ogr_spatialref.h"

#include "protocol/rumi_gdal.h" /* includes rumi.h */

#include <cstring>
#include <memory>
#include <string>
#include <vector>

extern "C" void rumi_gdal_register_driver(void) noexcept;

/** Reports the last rumi error as a GDAL error: "RUMI: [context: ]message". */
void RUMIReportError(const char *pszContext);

/** Calls f(key, value) for each item of a rumi_gdal_metadata list (NUL-separated KEY=VALUE
 *  strings, rumi_gdal.h; NULL: none). */
template <class F> void RUMIForEachItem(const char *pszList, F f)
{
    for (; pszList != nullptr && pszList[0] != '\0'; pszList += strlen(pszList) + 1)
    {
        const char *pszEq = strchr(pszList, '=');
        if (pszEq != nullptr)
            f(std::string(pszList, pszEq - pszList).c_str(), pszEq + 1);
    }
}

/* GDAL 3.10 made the band map of GDALDataset::IRasterIO const (BANDMAP_TYPE). */
#ifdef BANDMAP_TYPE
#define RUMI_BANDMAP_TYPE BANDMAP_TYPE
#else
#define RUMI_BANDMAP_TYPE int *
#endif

/** An open rumi file and how GDAL sees its samples: shared by a classic dataset, or by a
 *  multidimensional dataset and its arrays (which may outlive it). */
struct RUMIFile
{
    RUMIFile() = default;
    ~RUMIFile();
    RUMIFile(const RUMIFile &) = delete;
    RUMIFile &operator=(const RUMIFile &) = delete;

    rumi_dataset *hRumi = nullptr; /* reads its VSI handle (rumi_gdal_open) */
    rumi_info sInfo{};
    std::string osPath{};   /* the rumi file */
    std::string osHeader{}; /* the header blob file, empty when the file was validated */
    uint32_t nOutput = RUMI_OUTPUT_NATIVE; /* RUMI_OUTPUT_FLOAT32 with PROMOTE=FLOAT32 */
    GDALDataType eDataType = GDT_Unknown;  /* of the samples rumi reads (nOutput) */
    uint32_t nThreads = 1; /* NUM_THREADS open option, else GDAL_NUM_THREADS, else 1 */

    /** Parses the name and the open options, opens the file (statelessly with a header blob)
     *  and picks the GDAL data type. NULL, with a CPLError, on failure; nTime is the time step
     *  a RUMI:"<path>":<t> name selects, -1 for none. */
    static std::shared_ptr<RUMIFile> Open(GDALOpenInfo *poOpenInfo, int &nTime, CPLStringList &aosSiblings);

  private:
    bool SetupDataType(uint32_t nPromote);

  public:
    char **FileList(char **papszBase) const;
    /** One rumi_read (include/rumi.h) of planes pasPlanes, rows sRows and columns sCols into
     *  the host buffer, sample (plane offset 0, row 0, col 0) at pOrigin, reported with
     *  CPL_DEBUG as "<kind> read of <file> (<fnDetail()>)", the detail (a C string) made only
     *  then: CPLDebug prints nothing without CPL_DEBUG. False with the rumi error set. */
    template <class Detail>
    bool Read(const rumi_plane *pasPlanes, size_t nPlanes, const rumi_axis &sRows, const rumi_axis &sCols,
              void *pOrigin, uint32_t nReadThreads, const char *pszKind, const Detail &fnDetail) const
    {
        const rumi_request sReq{pasPlanes, nPlanes, sRows, sCols, pOrigin, nOutput};
        if (rumi_read(hRumi, &sReq, nReadThreads) != RUMI_OK)
            return false;
        if (CPLGetConfigOption("CPL_DEBUG", nullptr) != nullptr)
            CPLDebug("RUMI", "%s read of %s (%s): %s", pszKind, osPath.c_str(), fnDetail(), rumi_gdal_last_read_text());
        return true;
    }
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

#if GDAL_VERSION_NUM >= GDAL_COMPUTE_VERSION(3, 12, 0)
    CPLErr GetGeoTransform(GDALGeoTransform &gt) const override; /* 3.12: replaces the double[6] one */
#else
    CPLErr GetGeoTransform(double *padfTransform) override;
#endif
    const OGRSpatialReference *GetSpatialRef() const override;
    char **GetFileList() override;
    char **GetMetadata(const char *pszDomain = "") override;
    const char *GetMetadataItem(const char *pszName, const char *pszDomain = "") override;
    char **GetMetadataDomainList() override;

  protected:
    CPLErr IRasterIO(GDALRWFlag eRWFlag, int nXOff, int nYOff, int nXSize, int nYSize, void *pData, int nBufXSize,
                     int nBufYSize, GDALDataType eBufType, int nBandCount, RUMI_BANDMAP_TYPE panBandMap,
                     GSpacing nPixelSpace, GSpacing nLineSpace, GSpacing nBandSpace,
                     GDALRasterIOExtraArg *psExtraArg) override;

  private:
    std::shared_ptr<RUMIFile> m_poFile{};
    rumi_dataset *m_hRumi = nullptr; /* m_poFile->hRumi */
    rumi_info m_sInfo{};             /* m_poFile->sInfo */
    int m_nTimeIndex = -1; /* time step of a subdataset, -1 for the whole file */
    OGRSpatialReference m_oSRS{};
    bool m_bHasSRS = false;
    double m_adfGeoTransform[6] = {0, 1, 0, 0, 0, 1};
    bool m_bHasGeoTransform = false;

    /* The georeferencing block and the trailer (band texts, time coordinates) are read when
       first needed, not at open: a stateless open followed by a pixel read then costs no
       request for them (over /vsicurl/: HEAD + the frames). LoadGeoreferencing runs on the
       first GetGeoTransform, GetSpatialRef or default-domain metadata query; LoadTrailer on
       the first query of the default, SUBDATASETS or RUMI domain of the dataset, of a band's
       default domain, or of a band description. Each runs once and reports a failure once;
       values found in .aux.xml (PAM) are kept. */
    bool m_bGeorefLoaded = false;
    bool m_bTrailerLoaded = false;
    void LoadGeoreferencing();
    void LoadTrailer();
    void LoadParts(uint32_t nParts);

    static GDALDataset *OpenImpl(GDALOpenInfo *poOpenInfo);
    bool SetupBands(int nTime);
    void SetupMetadata();
    void SetupPam(GDALOpenInfo *poOpenInfo, char **papszSiblings);
    int BlockXSize() const;
    int BlockYSize() const;
    CPLErr ReadWindow(int nXOff, int nYOff, int nXSize, int nYSize, void *pData, int nBandCount,
                      const int *panBandMap, GSpacing nPixelSpace, GSpacing nLineSpace, GSpacing nBandSpace);

    CPL_DISALLOW_COPY_ASSIGN(RUMIDataset)
};

/** One band of one time step. Blocks are the file's tiles. */
class RUMIRasterBand final : public GDALPamRasterBand
{
    friend class RUMIDataset;

  public:
    RUMIRasterBand(RUMIDataset *poDSIn, int nBandIn, uint32_t nRumiBand, uint32_t nRumiTime);

    /* band texts and time labels come from the trailer, read on first use (RUMIDataset) */
    const char *GetDescription() const override;
    char **GetMetadata(const char *pszDomain = "") override;
    const char *GetMetadataItem(const char *pszName, const char *pszDomain = "") override;
    char **GetMetadataDomainList() override;

  protected:
    CPLErr IReadBlock(int nBlockXOff, int nBlockYOff, void *pImage) override;
    CPLErr IRasterIO(GDALRWFlag eRWFlag, int nXOff, int nYOff, int nXSize, int nYSize, void *pData, int nBufXSize,
                     int nBufYSize, GDALDataType eBufType, GSpacing nPixelSpace, GSpacing nLineSpace,
                     GDALRasterIOExtraArg *psExtraArg) override;

  private:
    uint32_t m_nRumiBand;
    uint32_t m_nRumiTime;

};

#endif /* RUMI_GDAL_DATASET_H */
