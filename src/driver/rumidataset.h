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

/** The default limits with the RUMI_MAX_* configuration options applied (docs/reliability.md).
 *  False, with a CPLError, when an option is not a positive integer. */
bool RUMIConfigLimits(rumi_limits &sLimits);

/* GDAL 3.10 made the band map of GDALDataset::IRasterIO const (BANDMAP_TYPE). */
#ifdef BANDMAP_TYPE
#define RUMI_BANDMAP_TYPE BANDMAP_TYPE
#else
#define RUMI_BANDMAP_TYPE int *
#endif

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

    /** The first bytes of the file, already read by GDALOpenInfo (from the chunk /vsicurl/
     *  fetched to identify the file): reads inside them are served from memory, so a
     *  stateless open reads the georeferencing block (and a validating open the IFD) of a
     *  small file without another request. */
    void SetPrefix(const GByte *pabyData, size_t nLen)
    {
        m_abyPrefix.assign(pabyData, pabyData + nLen);
    }

  private:
    VSILFILE *m_fp;
    std::mutex m_mutex{};
    std::vector<GByte> m_abyPrefix{};

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
    friend class RUMIMultiDimDataset; /* takes the open file for the multidimensional view */

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

    static GDALDataset *OpenImpl(GDALOpenInfo *poOpenInfo);
    bool SetupDataType(bool bPromote, const std::string &osPath);
    void SetupMetadata(const std::string &osHeader);
    void FillOtherBands(RUMIRasterBand *poSkip, int nBlockXOff, int nBlockYOff,
                        const rumi_frame *psFrame);
    std::shared_ptr<rumi_frame> GetFrame(uint32_t nRow, uint32_t nCol, uint32_t nBand, uint32_t nTime);
    int BlockXSize() const;
    int BlockYSize() const;
    size_t BlockBytes() const;
    size_t LineStride() const;

    /* Multi-block reads (IRasterIO, rumidataset.cpp "Multi-block reads"): a request covering
       several blocks fetches every frame it needs in one batched range read and decodes them
       on m_nThreads threads (NUM_THREADS open option or GDAL_NUM_THREADS; default 1), either
       straight into the request buffer (DIRECT) or into the block cache (CACHE).
       RUMI_MULTI_BLOCK_READ=AUTO|DIRECT|CACHE|NO picks the way; AUTO: DIRECT for whole-raster
       reads and full-width swaths of every band, and for requests too large for the cache;
       CACHE for the others (MultiBlockRead). */
    enum class MultiBlockMode
    {
        NONE,
        AUTO,
        DIRECT,
        CACHE
    };
    enum class MultiBlockResult
    {
        DEFAULT, /* not handled: take GDAL's block-by-block path */
        DONE,    /* the request buffer is filled (or the read failed) */
        CACHED   /* the blocks are in the block cache: compose the buffer from them */
    };
    MultiBlockMode m_eMultiBlockMode = MultiBlockMode::AUTO;
    int m_nThreads = 1;
    int m_nMultiBlockDepth = 0; /* > 0 inside a multi-block read: no recursion */
    MultiBlockResult MultiBlockRead(int nXOff, int nYOff, int nXSize, int nYSize, void *pData,
                                    GDALDataType eBufType, int nBandCount, const int *panBandMap,
                                    GSpacing nPixelSpace, GSpacing nLineSpace, GSpacing nBandSpace, CPLErr &eErr);
    CPLErr ReadDirect(int nXOff, int nYOff, int nXSize, int nYSize, void *pData, int nBandCount,
                      const int *panBandMap, GSpacing nPixelSpace, GSpacing nLineSpace, GSpacing nBandSpace);
    CPLErr ReadIntoCache(int nXOff, int nYOff, int nXSize, int nYSize, int nBandCount, const int *panBandMap);
    void SetupMultiBlockRead(GDALOpenInfo *poOpenInfo);

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

    CPLErr ReadBlockImpl(int nBlockXOff, int nBlockYOff, void *pImage);
};

#endif /* RUMI_GDAL_DATASET_H */
