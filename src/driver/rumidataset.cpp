/*
 * rumi GDAL driver: dataset, band and registration. See rumidataset.h.
 *
 * Mapping of the rumi data model (spec: "Data model"):
 *   Image (T = 1)        -> B bands, description = band text
 *   Cube  (T > 1)        -> T*B bands, time-major (GDAL band t*B + b + 1), description
 *                           "<band text> @ <time>", plus one subdataset per time step
 *   RUMI:"<path>":<t>    -> time step t of a file as an Image of B bands
 * Blocks are the file's tiles; reading a block decodes one frame. For frame units whose
 * frames hold a whole cell, the other bands' blocks of the same tile are filled from the same
 * decoded frame, so reading every band decodes each frame once.
 */
#include "rumidataset.h"
#include "rumimultidim.h"

#include "cpl_string.h"
#include "cpl_vsi.h"

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstring>
#include <exception>
#include <new>

namespace
{

constexpr const char *DRIVER_NAME = "RUMI";
constexpr const char *PREFIX = "RUMI:";

struct FrameFree
{
    void operator()(rumi_frame *psFrame) const noexcept
    {
        rumi_frame_free(psFrame);
    }
};

/* Reports the last rumi error as a GDAL error: "RUMI: [context: ]message". */
void ReportRumiError(const char *pszContext = nullptr)
{
    const char *pszMsg = rumi_last_error();
    if (pszContext != nullptr && pszContext[0] != '\0')
        CPLError(CE_Failure, CPLE_AppDefined, "RUMI: %s: %s", pszContext, pszMsg);
    else
        CPLError(CE_Failure, CPLE_AppDefined, "RUMI: %s", pszMsg);
}

/* For IReadBlock only: records the last rumi error as GDAL's last error without printing it.
   IReadBlock's one caller, GDALRasterBand::GetLockedBlockRef, reports every failure itself as
   "<file>, band <n>: IReadBlock failed at X offset .., Y offset ..: <last error>", so printing
   the error here too would show the user the same message twice. */
void ReportRumiBlockError(const char *pszContext)
{
    CPLPushErrorHandler(CPLQuietErrorHandler);
    ReportRumiError(pszContext);
    CPLPopErrorHandler();
}

/* Parses "RUMI:<path>" and "RUMI:\"<path>\":<t>". Returns false (with a CPLError) on bad
   syntax. nTime is -1 when no time step is given. */
bool ParseConnectionString(const char *pszName, std::string &osPath, int &nTime)
{
    const char *pszRest = pszName + strlen(PREFIX);
    nTime = -1;
    const char *pszSyntax = "expected RUMI:<path> or RUMI:\"<path>\":<time index>";
    if (pszRest[0] == '"')
    {
        const char *pszEnd = strrchr(pszRest + 1, '"');
        if (pszEnd == nullptr || pszEnd == pszRest + 1)
        {
            CPLError(CE_Failure, CPLE_OpenFailed,
                     "RUMI: invalid dataset name '%s': unterminated or empty quoted path; %s", pszName,
                     pszSyntax);
            return false;
        }
        osPath.assign(pszRest + 1, pszEnd);
        const char *pszTail = pszEnd + 1;
        if (pszTail[0] == '\0')
            return true;
        const char *pszDigits = pszTail + 1;
        const size_t nDigits = strlen(pszDigits);
        const bool bDigitsOnly =
            nDigits > 0 && nDigits <= 9 &&
            std::all_of(pszDigits, pszDigits + nDigits, [](char c) { return c >= '0' && c <= '9'; });
        if (pszTail[0] != ':' || !bDigitsOnly)
        {
            CPLError(CE_Failure, CPLE_OpenFailed,
                     "RUMI: invalid dataset name '%s': '%s' after the quoted path is not ':' followed by a "
                     "time index (a non-negative integer); %s",
                     pszName, pszTail, pszSyntax);
            return false;
        }
        nTime = atoi(pszDigits);
        return true;
    }
    if (pszRest[0] == '\0')
    {
        CPLError(CE_Failure, CPLE_OpenFailed, "RUMI: invalid dataset name '%s': no path; %s", pszName,
                 pszSyntax);
        return false;
    }
    osPath = pszRest;
    /* Unquoted "RUMI:<path>:<t>" (how rasterio lists subdatasets, without the quotes): when
       the whole text is not a file but the part before the last ":<digits>" is, it names
       time step t. */
    const char *pszColon = strrchr(pszRest, ':');
    if (pszColon != nullptr && pszColon != pszRest && pszColon[1] != '\0' && strlen(pszColon + 1) <= 9 &&
        std::all_of(pszColon + 1, pszColon + strlen(pszColon), [](char c) { return c >= '0' && c <= '9'; }))
    {
        VSIStatBufL sStat;
        const std::string osHead(pszRest, pszColon);
        if (VSIStatL(pszRest, &sStat) != 0 && VSIStatL(osHead.c_str(), &sStat) == 0)
        {
            osPath = osHead;
            nTime = atoi(pszColon + 1);
        }
    }
    return true;
}

/* Reads a header blob through VSI: at most 32 + 4 * max_frames bytes (32-bit counts of the
   most frames the limits allow), so RUMI_MAX_FRAMES also bounds what a blob can make us read. */
bool IngestFile(const std::string &osPath, std::vector<GByte> &abyOut, const rumi_limits &sLimits)
{
    GByte *pabyData = nullptr;
    vsi_l_offset nSize = 0;
    const uint64_t nMaxFrames = std::min<uint64_t>(sLimits.max_frames, static_cast<uint64_t>(1) << 40);
    const GIntBig nMax = static_cast<GIntBig>(32 + 4 * nMaxFrames);
    if (!VSIIngestFile(nullptr, osPath.c_str(), &pabyData, &nSize, nMax))
    {
        CPLError(CE_Failure, CPLE_OpenFailed,
                 "RUMI: cannot read the header blob '%s' (missing, unreadable, or larger than the " CPL_FRMT_GIB
                 " bytes RUMI_MAX_FRAMES allows)",
                 osPath.c_str(), nMax);
        return false;
    }
    abyOut.assign(pabyData, pabyData + nSize);
    VSIFree(pabyData);
    return true;
}

/* The decoded frame layout of a frame unit, as in the spec's table. */
const char *FrameLayout(uint32_t nUnit, uint32_t nBands)
{
    switch (nUnit)
    {
        case 0:
        case 9:
            return "h w";
        case 1:
            return nBands > 1 ? "b h w" : "t h w";
        case 2:
            return nBands > 1 ? "h w b" : "h w t";
        case 3:
            return "b t h w";
        case 4:
            return "t b h w";
        case 5:
            return "b h w t";
        case 6:
            return "t h w b";
        case 7:
            return "h w b t";
        default:
            return "h w t b";
    }
}

}  // namespace

/************************************************************************/
/*                            RUMIVsiSource                             */
/************************************************************************/

RUMIVsiSource::~RUMIVsiSource()
{
    if (m_fp != nullptr)
        VSIFCloseL(m_fp);
}

rumi_io RUMIVsiSource::AsIo()
{
    rumi_io sIo{};
    sIo.ctx = this;
    sIo.read = ReadCb;
    sIo.size = SizeCb;
    sIo.read_multi = ReadMultiCb;
    return sIo;
}

int RUMIVsiSource::EofOrError(uint64_t nOffset, size_t nLen) noexcept
{
    /* caller holds the mutex */
    if (VSIFSeekL(m_fp, 0, SEEK_END) != 0)
        return RUMI_IO_ERROR;
    const vsi_l_offset nSize = VSIFTellL(m_fp);
    return (nOffset > nSize || nLen > nSize - nOffset) ? RUMI_IO_EOF : RUMI_IO_ERROR;
}

int RUMIVsiSource::Read(uint64_t nOffset, size_t nLen, uint8_t *pabyBuf) noexcept
{
    try
    {
        if (nOffset <= m_abyPrefix.size() && nLen <= m_abyPrefix.size() - nOffset)
        {
            if (nLen > 0)
                memcpy(pabyBuf, m_abyPrefix.data() + nOffset, nLen);
            return RUMI_IO_OK;
        }
        if (nLen >= 2 && nLen < 16384)
        {
            /* A small VSIFReadL on /vsicurl/ is widened to a whole 16 KiB chunk (which would read
               the IFD when a stateless open reads the georeferencing block); a read of two
               adjacent ranges is fetched exactly. Large reads (frames) are fetched as they are
               in one request. On local files this is two plain reads. */
            const uint64_t anOffsets[2] = {nOffset, nOffset + nLen / 2};
            const size_t anLens[2] = {nLen / 2, nLen - nLen / 2};
            uint8_t *const apBufs[2] = {pabyBuf, pabyBuf + nLen / 2};
            return ReadMulti(2, anOffsets, anLens, apBufs);
        }
        std::lock_guard<std::mutex> oLock(m_mutex);
        if (VSIFSeekL(m_fp, static_cast<vsi_l_offset>(nOffset), SEEK_SET) != 0)
            return EofOrError(nOffset, nLen);
        if (VSIFReadL(pabyBuf, 1, nLen, m_fp) != nLen)
            return EofOrError(nOffset, nLen);
        return RUMI_IO_OK;
    }
    catch (...)
    {
        return RUMI_IO_ERROR;
    }
}

int RUMIVsiSource::Size(uint64_t *pnSize) noexcept
{
    try
    {
        std::lock_guard<std::mutex> oLock(m_mutex);
        if (VSIFSeekL(m_fp, 0, SEEK_END) != 0)
            return RUMI_IO_ERROR;
        *pnSize = static_cast<uint64_t>(VSIFTellL(m_fp));
        return RUMI_IO_OK;
    }
    catch (...)
    {
        return RUMI_IO_ERROR;
    }
}

int RUMIVsiSource::ReadMulti(size_t nCount, const uint64_t *panOffsets, const size_t *panLens,
                             uint8_t *const *papBufs) noexcept
{
    try
    {
        if (nCount > static_cast<size_t>(INT_MAX))
            return RUMI_IO_ERROR;
        std::vector<vsi_l_offset> anOffsets(panOffsets, panOffsets + nCount);
        std::vector<void *> apData(papBufs, papBufs + nCount);
        std::lock_guard<std::mutex> oLock(m_mutex);
        /* Batches of at most 64 ranges: HTTP servers cap the ranges of one request (and
           /vsicurl/ fails a request with hundreds of them). A batch the multi-range call cannot
           serve is read range by range. */
        constexpr size_t BATCH = 64;
        for (size_t nStart = 0; nStart < nCount; nStart += BATCH)
        {
            const size_t n = std::min(BATCH, nCount - nStart);
            if (VSIFReadMultiRangeL(static_cast<int>(n), apData.data() + nStart, anOffsets.data() + nStart,
                                    panLens + nStart, m_fp) == 0)
                continue;
            for (size_t i = nStart; i < nStart + n; ++i)
            {
                if (VSIFSeekL(m_fp, anOffsets[i], SEEK_SET) != 0 ||
                    VSIFReadL(apData[i], 1, panLens[i], m_fp) != panLens[i])
                    return EofOrError(panOffsets[i], panLens[i]);
            }
        }
        return RUMI_IO_OK;
    }
    catch (...)
    {
        return RUMI_IO_ERROR;
    }
}

int RUMIVsiSource::ReadCb(void *ctx, uint64_t offset, size_t len, uint8_t *buf) noexcept
{
    return static_cast<RUMIVsiSource *>(ctx)->Read(offset, len, buf);
}

int RUMIVsiSource::SizeCb(void *ctx, uint64_t *size) noexcept
{
    return static_cast<RUMIVsiSource *>(ctx)->Size(size);
}

int RUMIVsiSource::ReadMultiCb(void *ctx, size_t count, const uint64_t *offsets, const size_t *lens,
                               uint8_t *const *bufs) noexcept
{
    return static_cast<RUMIVsiSource *>(ctx)->ReadMulti(count, offsets, lens, bufs);
}

/************************************************************************/
/*                            RUMIRasterBand                            */
/************************************************************************/

RUMIRasterBand::RUMIRasterBand(RUMIDataset *poDSIn, int nBandIn, uint32_t nRumiBand, uint32_t nRumiTime)
    : m_nRumiBand(nRumiBand), m_nRumiTime(nRumiTime)
{
    poDS = poDSIn;
    nBand = nBandIn;
    nRasterXSize = poDSIn->GetRasterXSize();
    nRasterYSize = poDSIn->GetRasterYSize();
    nBlockXSize = poDSIn->BlockXSize();
    nBlockYSize = poDSIn->BlockYSize();
    eDataType = poDSIn->m_eDataType;
}

CPLErr RUMIRasterBand::IReadBlock(int nBlockXOff, int nBlockYOff, void *pImage)
{
    try
    {
        return ReadBlockImpl(nBlockXOff, nBlockYOff, pImage);
    }
    catch (const std::exception &e)
    {
        CPLError(CE_Failure, CPLE_AppDefined, "RUMI: %s", e.what());
        return CE_Failure;
    }
}

CPLErr RUMIRasterBand::ReadBlockImpl(int nBlockXOff, int nBlockYOff, void *pImage)
{
    auto poGDS = static_cast<RUMIDataset *>(poDS);
    const size_t nBlockBytes = poGDS->BlockBytes();
    /* edge tiles are clipped in the file: the rest of the block stays 0 */
    memset(pImage, 0, nBlockBytes);

    std::shared_ptr<rumi_frame> poFrame = poGDS->GetFrame(static_cast<uint32_t>(nBlockYOff),
                                                          static_cast<uint32_t>(nBlockXOff), m_nRumiBand, m_nRumiTime);
    if (!poFrame)
    {
        ReportRumiBlockError(CPLSPrintf("band %d, block (%d, %d)", nBand, nBlockXOff, nBlockYOff));
        return CE_Failure;
    }
    if (rumi_frame_extract(poGDS->m_hRumi, poFrame.get(), m_nRumiBand, m_nRumiTime, poGDS->m_nOutput, pImage,
                           nBlockBytes, poGDS->LineStride()) != RUMI_OK)
    {
        ReportRumiBlockError(CPLSPrintf("band %d, block (%d, %d)", nBand, nBlockXOff, nBlockYOff));
        return CE_Failure;
    }
    if (poGDS->m_sInfo.cell_frames)
        poGDS->FillOtherBands(this, nBlockXOff, nBlockYOff, poFrame.get());
    return CE_None;
}

/************************************************************************/
/*                              RUMIDataset                             */
/************************************************************************/

RUMIDataset::~RUMIDataset()
{
    GDALPamDataset::FlushCache(true);
    m_poLastFrame.reset();
    /* the Rust side calls the source's callbacks until rumi_free returns */
    rumi_free(m_hRumi);
    m_hRumi = nullptr;
    m_poSource.reset();
}

/* Blocks are tiles; a tile larger than the image is clipped to it (there is one tile across or
   down then, so block and tile indices stay equal) to keep GDAL's block buffers small. */
int RUMIDataset::BlockXSize() const
{
    return static_cast<int>(std::min(m_sInfo.tile_width, m_sInfo.width));
}

int RUMIDataset::BlockYSize() const
{
    return static_cast<int>(std::min(m_sInfo.tile_length, m_sInfo.length));
}

size_t RUMIDataset::LineStride() const
{
    return static_cast<size_t>(BlockXSize()) * m_nOutBytes;
}

size_t RUMIDataset::BlockBytes() const
{
    return LineStride() * static_cast<size_t>(BlockYSize());
}

/* Decodes the frame holding (band, time) of tile (row, col); NULL with the rumi error set. */
std::shared_ptr<rumi_frame> RUMIDataset::GetFrame(uint32_t nRow, uint32_t nCol, uint32_t nBand, uint32_t nTime)
{
    std::lock_guard<std::mutex> oLock(m_oFrameMutex);
    if (m_sInfo.cell_frames && m_poLastFrame && m_nLastRow == nRow && m_nLastCol == nCol)
    {
        CPLDebug("RUMI", "reused the decoded frame of tile (%u, %u)", nRow, nCol);
        return m_poLastFrame;
    }
    rumi_frame *psRaw = nullptr;
    if (rumi_frame_read(m_hRumi, nRow, nCol, nBand, nTime, &psRaw) != RUMI_OK)
        return nullptr;
    std::shared_ptr<rumi_frame> poFrame(psRaw, FrameFree());
    CPLDebug("RUMI", "decoded the frame of tile (%u, %u) holding band %u at time %u", nRow, nCol, nBand, nTime);
    if (m_sInfo.cell_frames)
    {
        m_poLastFrame = poFrame;
        m_nLastRow = nRow;
        m_nLastCol = nCol;
    }
    return poFrame;
}

/* Like GTiff's FillCacheForOtherBands: a decoded cell holds every band of this tile, so
   put the other bands' planes into their (not yet cached) blocks while it is in memory. */
void RUMIDataset::FillOtherBands(RUMIRasterBand *poSkip, int nBlockXOff, int nBlockYOff,
                                 const rumi_frame *psFrame)
{
    if (nBands < 2)
        return;
    const size_t nBlockBytes = BlockBytes();
    /* Do not evict half the cache for blocks that may never be read. */
    if (static_cast<GIntBig>(nBlockBytes) * nBands > GDALGetCacheMax64() / 2)
        return;
    const size_t nLineStride = LineStride();
    for (int iBand = 1; iBand <= nBands; ++iBand)
    {
        if (iBand == poSkip->GetBand())
            continue;
        auto poBand = static_cast<RUMIRasterBand *>(GetRasterBand(iBand));
        GDALRasterBlock *poBlock = poBand->TryGetLockedBlockRef(nBlockXOff, nBlockYOff);
        if (poBlock != nullptr)
        {
            poBlock->DropLock(); /* already cached */
            continue;
        }
        poBlock = poBand->GetLockedBlockRef(nBlockXOff, nBlockYOff, TRUE);
        if (poBlock == nullptr)
            continue;
        void *pData = poBlock->GetDataRef();
        memset(pData, 0, nBlockBytes);
        const bool bOk = rumi_frame_extract(m_hRumi, psFrame, poBand->m_nRumiBand, poBand->m_nRumiTime, m_nOutput,
                                            pData, nBlockBytes, nLineStride) == RUMI_OK;
        poBlock->DropLock();
        if (!bOk)
            poBand->FlushBlock(nBlockXOff, nBlockYOff, FALSE); /* never keep a wrong block */
    }
}

/************************************************************************/
/*                     Multi-block reads (IRasterIO)                    */
/************************************************************************/

namespace
{

/* GDAL_NUM_THREADS-style value: ALL_CPUS or a count; 1 when unset or not a positive number. */
int ParseThreadCount(const char *pszValue)
{
    if (pszValue == nullptr || pszValue[0] == '\0')
        return 1;
    const int nThreads = EQUAL(pszValue, "ALL_CPUS") ? CPLGetNumCPUs() : atoi(pszValue);
    return std::max(1, std::min(nThreads, 256));
}

/* True when CPL_DEBUG asks for debug messages (then each decoded frame is reported, as the
   block path does). */
bool DebugOn()
{
    const char *pszDebug = CPLGetConfigOption("CPL_DEBUG", nullptr);
    return pszDebug != nullptr && !EQUAL(pszDebug, "OFF") && !EQUAL(pszDebug, "NO") && !EQUAL(pszDebug, "FALSE");
}

/* Frees the frames of a batch on every exit path. */
struct FrameBatch
{
    std::vector<rumi_frame *> apsFrames{};
    ~FrameBatch()
    {
        for (rumi_frame *psFrame : apsFrames)
            rumi_frame_free(psFrame);
    }
};

}  // namespace

void RUMIDataset::SetupMultiBlockRead(GDALOpenInfo *poOpenInfo)
{
    const char *pszThreads = CSLFetchNameValue(poOpenInfo->papszOpenOptions, "NUM_THREADS");
    m_nThreads = ParseThreadCount(pszThreads ? pszThreads : CPLGetConfigOption("GDAL_NUM_THREADS", nullptr));
    const char *pszMode = CPLGetConfigOption("RUMI_MULTI_BLOCK_READ", "AUTO");
    if (EQUAL(pszMode, "DIRECT"))
        m_eMultiBlockMode = MultiBlockMode::DIRECT;
    else if (EQUAL(pszMode, "CACHE"))
        m_eMultiBlockMode = MultiBlockMode::CACHE;
    else if (EQUAL(pszMode, "NO") || EQUAL(pszMode, "NONE") || EQUAL(pszMode, "OFF") || EQUAL(pszMode, "FALSE"))
        m_eMultiBlockMode = MultiBlockMode::NONE;
    else
        m_eMultiBlockMode = MultiBlockMode::AUTO;
}

/* Decides how a read request is served. One block: GDAL's block path (IReadBlock and the
   block cache). Several blocks: every frame they need is fetched in one batched range read
   and decoded on m_nThreads threads, DIRECT into the request buffer or into the block CACHE
   (the caller then composes the buffer from the cached blocks, and later reads of the same
   area are served from memory). AUTO: DIRECT for whole-raster reads and full-width swaths
   that ask for every band the frames hold (read once: caching them would only churn the
   cache; measured in bench/results/latest.md) and for requests too large for the cache;
   CACHE otherwise, in particular for windows and for band-by-band reads of cell frames. */
RUMIDataset::MultiBlockResult RUMIDataset::MultiBlockRead(int nXOff, int nYOff, int nXSize, int nYSize, void *pData,
                                                          GDALDataType eBufType, int nBandCount,
                                                          const int *panBandMap, GSpacing nPixelSpace,
                                                          GSpacing nLineSpace, GSpacing nBandSpace, CPLErr &eErr)
{
    eErr = CE_None;
    if (m_eMultiBlockMode == MultiBlockMode::NONE || m_nMultiBlockDepth > 0 || nBandCount < 1 || nXSize < 1 ||
        nYSize < 1 || eBufType != m_eDataType)
        return MultiBlockResult::DEFAULT;
    const int nBX = BlockXSize();
    const int nBY = BlockYSize();
    const GIntBig nTiles = static_cast<GIntBig>((nXOff + nXSize - 1) / nBX - nXOff / nBX + 1) *
                           ((nYOff + nYSize - 1) / nBY - nYOff / nBY + 1);
    if (nTiles < 2)
        return MultiBlockResult::DEFAULT;

    const bool bWhole = nXOff == 0 && nYOff == 0 && nXSize == nRasterXSize && nYSize == nRasterYSize;
    /* A full-width swath (gdal_translate's pattern): read once, better not cached. */
    const bool bSwath = nXOff == 0 && nXSize == nRasterXSize;
    /* With cell frames, a request for some of the bands would decode each cell again for the
       others: the cache keeps the other bands' planes of every decoded cell. */
    bool bAllBands = !m_sInfo.cell_frames;
    if (!bAllBands)
    {
        std::vector<bool> abSeen(static_cast<size_t>(nBands) + 1, false);
        int nSeen = 0;
        for (int i = 0; i < nBandCount; ++i)
        {
            if (panBandMap[i] >= 1 && panBandMap[i] <= nBands && !abSeen[panBandMap[i]])
            {
                abSeen[panBandMap[i]] = true;
                ++nSeen;
            }
        }
        bAllBands = nSeen == nBands;
    }
    const int nFillBands = m_sInfo.cell_frames ? nBands : nBandCount;
    const GIntBig nCacheBytes = nTiles * static_cast<GIntBig>(BlockBytes()) * nFillBands;
    const GIntBig nCacheMax = GDALGetCacheMax64();
    const bool bCanDirect = m_nOutput == RUMI_OUTPUT_NATIVE && CPL_IS_LSB && nPixelSpace > 0 && nLineSpace >= 0 &&
                            nBandSpace >= 0;
    bool bDirect = false;
    switch (m_eMultiBlockMode)
    {
        case MultiBlockMode::DIRECT:
            bDirect = bCanDirect;
            break;
        case MultiBlockMode::CACHE:
            bDirect = false;
            break;
        default:
            bDirect = bCanDirect && ((bAllBands && (bWhole || bSwath)) || nCacheBytes > nCacheMax / 4);
            break;
    }
    /* A fill larger than half the cache would evict its own blocks before they are copied. */
    if (!bDirect && nCacheBytes > nCacheMax / 2)
    {
        if (!bCanDirect || m_eMultiBlockMode == MultiBlockMode::CACHE)
            return MultiBlockResult::DEFAULT;
        bDirect = true;
    }

    ++m_nMultiBlockDepth;
    try
    {
        if (bDirect)
            eErr = ReadDirect(nXOff, nYOff, nXSize, nYSize, pData, nBandCount, panBandMap, nPixelSpace, nLineSpace,
                              nBandSpace);
        else
            eErr = ReadIntoCache(nXOff, nYOff, nXSize, nYSize, nBandCount, panBandMap);
    }
    catch (const std::exception &e)
    {
        CPLError(CE_Failure, CPLE_AppDefined, "RUMI: %s", e.what());
        eErr = CE_Failure;
    }
    --m_nMultiBlockDepth;
    return bDirect || eErr != CE_None ? MultiBlockResult::DONE : MultiBlockResult::CACHED;
}

/* DIRECT: tiles whose requested blocks are all cached are copied from the cache (it may hold
   them from earlier block reads; a read-only dataset never has dirty blocks, so the cache and
   the file agree); the other tiles are read by rumi_read_strided straight into pData. */
CPLErr RUMIDataset::ReadDirect(int nXOff, int nYOff, int nXSize, int nYSize, void *pData, int nBandCount,
                               const int *panBandMap, GSpacing nPixelSpace, GSpacing nLineSpace, GSpacing nBandSpace)
{
    const int nBX = BlockXSize();
    const int nBY = BlockYSize();
    const int nDTSize = GDALGetDataTypeSizeBytes(m_eDataType);
    std::vector<RUMIRasterBand *> apoBands(nBandCount);
    std::vector<uint32_t> anBands(nBandCount);
    std::vector<uint32_t> anTimes(nBandCount);
    for (int i = 0; i < nBandCount; ++i)
    {
        apoBands[i] = static_cast<RUMIRasterBand *>(GetRasterBand(panBandMap[i]));
        anBands[i] = apoBands[i]->m_nRumiBand;
        anTimes[i] = apoBands[i]->m_nRumiTime;
    }
    if (nBandCount == 1)
        nBandSpace = 0;
    GByte *pabyData = static_cast<GByte *>(pData);
    std::vector<rumi_tile> asTiles;
    std::vector<GDALRasterBlock *> apoBlocks(nBandCount);
    for (int nBlockY = nYOff / nBY; nBlockY <= (nYOff + nYSize - 1) / nBY; ++nBlockY)
    {
        for (int nBlockX = nXOff / nBX; nBlockX <= (nXOff + nXSize - 1) / nBX; ++nBlockX)
        {
            int nCached = 0;
            for (; nCached < nBandCount; ++nCached)
            {
                apoBlocks[nCached] = apoBands[nCached]->TryGetLockedBlockRef(nBlockX, nBlockY);
                if (apoBlocks[nCached] == nullptr)
                    break;
            }
            if (nCached < nBandCount)
            {
                for (int i = 0; i < nCached; ++i)
                    apoBlocks[i]->DropLock();
                asTiles.push_back(rumi_tile{static_cast<uint32_t>(nBlockY), static_cast<uint32_t>(nBlockX)});
                continue;
            }
            const int nX0 = std::max(nXOff, nBlockX * nBX);
            const int nX1 = std::min(nXOff + nXSize, (nBlockX + 1) * nBX);
            const int nY0 = std::max(nYOff, nBlockY * nBY);
            const int nY1 = std::min(nYOff + nYSize, (nBlockY + 1) * nBY);
            for (int i = 0; i < nBandCount; ++i)
            {
                const GByte *pabyBlock = static_cast<const GByte *>(apoBlocks[i]->GetDataRef());
                for (int y = nY0; y < nY1; ++y)
                {
                    GDALCopyWords64(pabyBlock + (static_cast<size_t>(y - nBlockY * nBY) * nBX + (nX0 - nBlockX * nBX)) *
                                                    nDTSize,
                                    m_eDataType, nDTSize,
                                    pabyData + i * nBandSpace + (y - nYOff) * nLineSpace + (nX0 - nXOff) * nPixelSpace,
                                    m_eDataType, static_cast<int>(nPixelSpace), nX1 - nX0);
                }
                apoBlocks[i]->DropLock();
            }
        }
    }
    if (asTiles.empty())
        return CE_None;

    rumi_strided_window sWin{};
    sWin.col_start = static_cast<uint32_t>(nXOff);
    sWin.col_end = static_cast<uint32_t>(nXOff + nXSize);
    sWin.row_start = static_cast<uint32_t>(nYOff);
    sWin.row_end = static_cast<uint32_t>(nYOff + nYSize);
    sWin.plane_count = static_cast<size_t>(nBandCount);
    sWin.bands = anBands.data();
    sWin.times = anTimes.data();
    sWin.dst = pData;
    sWin.dst_len = static_cast<size_t>((nXSize - 1) * nPixelSpace + (nYSize - 1) * nLineSpace +
                                       (nBandCount - 1) * nBandSpace + nDTSize);
    sWin.pixel_space = static_cast<size_t>(nPixelSpace);
    sWin.line_space = static_cast<size_t>(nLineSpace);
    sWin.band_space = static_cast<size_t>(nBandSpace);
    CPLDebug("RUMI", "multi-block read (direct) of %dx%d at (%d, %d), %d band(s): %d tile(s) decoded on %d thread(s)",
             nXSize, nYSize, nXOff, nYOff, nBandCount, static_cast<int>(asTiles.size()), m_nThreads);
    if (rumi_read_strided(m_hRumi, &sWin, asTiles.data(), asTiles.size(), static_cast<uint32_t>(m_nThreads)) !=
        RUMI_OK)
    {
        ReportRumiError(CPLSPrintf("window %dx%d at (%d, %d)", nXSize, nYSize, nXOff, nYOff));
        return CE_Failure;
    }
    if (DebugOn())
    {
        std::vector<std::pair<uint32_t, uint32_t>> aoPairs;
        for (int i = 0; i < nBandCount; ++i)
            aoPairs.emplace_back(m_sInfo.cell_frames ? 0 : anBands[i], m_sInfo.cell_frames ? 0 : anTimes[i]);
        std::sort(aoPairs.begin(), aoPairs.end());
        aoPairs.erase(std::unique(aoPairs.begin(), aoPairs.end()), aoPairs.end());
        for (const rumi_tile &sTile : asTiles)
            for (const auto &oPair : aoPairs)
                CPLDebug("RUMI", "decoded the frame of tile (%u, %u) holding band %u at time %u", sTile.row,
                         sTile.col, oPair.first, oPair.second);
    }
    return CE_None;
}

/* CACHE: decodes the frames of every block of the window that is not cached yet (with cell
   frames, every band of the dataset, as FillOtherBands does) and stores the planes in the
   block cache. */
CPLErr RUMIDataset::ReadIntoCache(int nXOff, int nYOff, int nXSize, int nYSize, int nBandCount,
                                  const int *panBandMap)
{
    const int nBX = BlockXSize();
    const int nBY = BlockYSize();
    std::vector<int> anFill;
    if (m_sInfo.cell_frames)
    {
        for (int i = 1; i <= nBands; ++i)
            anFill.push_back(i);
    }
    else
    {
        anFill.assign(panBandMap, panBandMap + nBandCount);
        std::sort(anFill.begin(), anFill.end());
        anFill.erase(std::unique(anFill.begin(), anFill.end()), anFill.end());
    }
    struct Need
    {
        int nBlockX;
        int nBlockY;
        RUMIRasterBand *poBand;
        size_t iFrame;
    };
    std::vector<Need> asNeeds;
    std::vector<rumi_frame_key> asKeys;
    for (int nBlockY = nYOff / nBY; nBlockY <= (nYOff + nYSize - 1) / nBY; ++nBlockY)
    {
        for (int nBlockX = nXOff / nBX; nBlockX <= (nXOff + nXSize - 1) / nBX; ++nBlockX)
        {
            const size_t nCellKey = asKeys.size();
            bool bCellKeyed = false;
            for (int iBand : anFill)
            {
                auto poBand = static_cast<RUMIRasterBand *>(GetRasterBand(iBand));
                GDALRasterBlock *poBlock = poBand->TryGetLockedBlockRef(nBlockX, nBlockY);
                if (poBlock != nullptr)
                {
                    poBlock->DropLock();
                    continue;
                }
                const rumi_frame_key sKey{static_cast<uint32_t>(nBlockY), static_cast<uint32_t>(nBlockX),
                                          poBand->m_nRumiBand, poBand->m_nRumiTime};
                if (m_sInfo.cell_frames)
                {
                    if (!bCellKeyed)
                        asKeys.push_back(sKey);
                    bCellKeyed = true;
                    asNeeds.push_back(Need{nBlockX, nBlockY, poBand, nCellKey});
                }
                else
                {
                    asNeeds.push_back(Need{nBlockX, nBlockY, poBand, asKeys.size()});
                    asKeys.push_back(sKey);
                }
            }
        }
    }
    if (asKeys.empty())
        return CE_None;

    CPLDebug("RUMI", "multi-block read (cache) of %dx%d at (%d, %d): %d frame(s) decoded on %d thread(s)", nXSize,
             nYSize, nXOff, nYOff, static_cast<int>(asKeys.size()), m_nThreads);
    FrameBatch oBatch;
    oBatch.apsFrames.assign(asKeys.size(), nullptr);
    if (rumi_frames_read(m_hRumi, asKeys.data(), asKeys.size(), static_cast<uint32_t>(m_nThreads),
                         oBatch.apsFrames.data()) != RUMI_OK)
    {
        ReportRumiError(CPLSPrintf("window %dx%d at (%d, %d)", nXSize, nYSize, nXOff, nYOff));
        return CE_Failure;
    }
    if (DebugOn())
    {
        for (const rumi_frame_key &sKey : asKeys)
            CPLDebug("RUMI", "decoded the frame of tile (%u, %u) holding band %u at time %u", sKey.row, sKey.col,
                     m_sInfo.cell_frames ? 0 : sKey.band, m_sInfo.cell_frames ? 0 : sKey.time);
    }
    const size_t nBlockBytes = BlockBytes();
    for (const Need &sNeed : asNeeds)
    {
        GDALRasterBlock *poBlock = sNeed.poBand->GetLockedBlockRef(sNeed.nBlockX, sNeed.nBlockY, TRUE);
        if (poBlock == nullptr)
            return CE_Failure;
        void *pBlock = poBlock->GetDataRef();
        /* edge tiles are clipped in the file: the rest of the block stays 0 */
        if ((sNeed.nBlockX + 1) * nBX > nRasterXSize || (sNeed.nBlockY + 1) * nBY > nRasterYSize)
            memset(pBlock, 0, nBlockBytes);
        const bool bOk = rumi_frame_extract(m_hRumi, oBatch.apsFrames[sNeed.iFrame], sNeed.poBand->m_nRumiBand,
                                            sNeed.poBand->m_nRumiTime, m_nOutput, pBlock, nBlockBytes,
                                            LineStride()) == RUMI_OK;
        poBlock->DropLock();
        if (!bOk)
        {
            sNeed.poBand->FlushBlock(sNeed.nBlockX, sNeed.nBlockY, FALSE); /* never keep a wrong block */
            ReportRumiError(CPLSPrintf("band %d, block (%d, %d)", sNeed.poBand->GetBand(), sNeed.nBlockX,
                                       sNeed.nBlockY));
            return CE_Failure;
        }
    }
    return CE_None;
}

CPLErr RUMIDataset::IRasterIO(GDALRWFlag eRWFlag, int nXOff, int nYOff, int nXSize, int nYSize, void *pData,
                              int nBufXSize, int nBufYSize, GDALDataType eBufType, int nBandCount,
                              RUMI_BANDMAP_TYPE panBandMap, GSpacing nPixelSpace, GSpacing nLineSpace,
                              GSpacing nBandSpace, GDALRasterIOExtraArg *psExtraArg)
{
    if (eRWFlag == GF_Read && nBufXSize == nXSize && nBufYSize == nYSize)
    {
        CPLErr eErr = CE_None;
        const MultiBlockResult eRes = MultiBlockRead(nXOff, nYOff, nXSize, nYSize, pData, eBufType, nBandCount,
                                                     panBandMap, nPixelSpace, nLineSpace, nBandSpace, eErr);
        if (eRes == MultiBlockResult::DONE)
            return eErr;
    }
    ++m_nMultiBlockDepth;
    const CPLErr eErr = GDALPamDataset::IRasterIO(eRWFlag, nXOff, nYOff, nXSize, nYSize, pData, nBufXSize, nBufYSize,
                                                  eBufType, nBandCount, panBandMap, nPixelSpace, nLineSpace,
                                                  nBandSpace, psExtraArg);
    --m_nMultiBlockDepth;
    return eErr;
}

CPLErr RUMIRasterBand::IRasterIO(GDALRWFlag eRWFlag, int nXOff, int nYOff, int nXSize, int nYSize, void *pData,
                                 int nBufXSize, int nBufYSize, GDALDataType eBufType, GSpacing nPixelSpace,
                                 GSpacing nLineSpace, GDALRasterIOExtraArg *psExtraArg)
{
    auto poGDS = static_cast<RUMIDataset *>(poDS);
    if (eRWFlag == GF_Read && nBufXSize == nXSize && nBufYSize == nYSize)
    {
        CPLErr eErr = CE_None;
        const int nBandMap = nBand;
        const auto eRes = poGDS->MultiBlockRead(nXOff, nYOff, nXSize, nYSize, pData, eBufType, 1, &nBandMap,
                                                nPixelSpace, nLineSpace, 0, eErr);
        if (eRes == RUMIDataset::MultiBlockResult::DONE)
            return eErr;
    }
    ++poGDS->m_nMultiBlockDepth;
    const CPLErr eErr = GDALPamRasterBand::IRasterIO(eRWFlag, nXOff, nYOff, nXSize, nYSize, pData, nBufXSize,
                                                     nBufYSize, eBufType, nPixelSpace, nLineSpace, psExtraArg);
    --poGDS->m_nMultiBlockDepth;
    return eErr;
}

#if GDAL_VERSION_NUM >= GDAL_COMPUTE_VERSION(3, 12, 0)
CPLErr RUMIDataset::GetGeoTransform(GDALGeoTransform &gt) const
{
    /* the lazily read georeferencing fills members: logically const */
    const_cast<RUMIDataset *>(this)->LoadGeoreferencing();
    if (m_bHasGeoTransform)
    {
        gt = GDALGeoTransform(m_adfGeoTransform);
        return CE_None;
    }
    return GDALPamDataset::GetGeoTransform(gt);
}
#else
CPLErr RUMIDataset::GetGeoTransform(double *padfTransform)
{
    LoadGeoreferencing();
    if (m_bHasGeoTransform)
    {
        memcpy(padfTransform, m_adfGeoTransform, sizeof(m_adfGeoTransform));
        return CE_None;
    }
    return GDALPamDataset::GetGeoTransform(padfTransform);
}
#endif

const OGRSpatialReference *RUMIDataset::GetSpatialRef() const
{
    /* the lazily read georeferencing fills members: logically const */
    const_cast<RUMIDataset *>(this)->LoadGeoreferencing();
    if (m_bHasSRS)
        return &m_oSRS;
    return GDALPamDataset::GetSpatialRef();
}

char **RUMIDataset::GetFileList()
{
    CPLStringList aosFiles(GDALPamDataset::GetFileList());
    for (const std::string &osFile : {m_osPath, m_osHeader})
    {
        if (!osFile.empty() && aosFiles.FindString(osFile.c_str()) < 0)
            aosFiles.AddString(osFile.c_str());
    }
    return aosFiles.StealList();
}

int RUMIDataset::Identify(GDALOpenInfo *poOpenInfo)
{
    if (STARTS_WITH_CI(poOpenInfo->pszFilename, PREFIX))
        return TRUE;
    /* file header: "RUMI", version 1 (uint16 LE), reserved 0 */
    static const GByte abyMagic[] = {'R', 'U', 'M', 'I', 1, 0, 0, 0};
    return poOpenInfo->fpL != nullptr && poOpenInfo->nHeaderBytes >= static_cast<int>(sizeof(abyMagic)) &&
           memcmp(poOpenInfo->pabyHeader, abyMagic, sizeof(abyMagic)) == 0;
}

GDALDataset *RUMIDataset::Open(GDALOpenInfo *poOpenInfo)
{
    try
    {
        return OpenImpl(poOpenInfo);
    }
    catch (const std::exception &e)
    {
        CPLError(CE_Failure, CPLE_AppDefined, "RUMI: %s", e.what());
        return nullptr;
    }
}

bool RUMIDataset::SetupDataType(bool bPromote, const std::string &osPath)
{
    const char *pszEncoding = rumi_encoding_name(m_sInfo.encoding);
    m_nOutput = RUMI_OUTPUT_NATIVE;
    switch (m_sInfo.encoding)
    {
        case RUMI_ENCODING_BOOL:
        case RUMI_ENCODING_UINT8:
            m_eDataType = GDT_Byte;
            break;
        case RUMI_ENCODING_INT8:
#if GDAL_VERSION_NUM >= GDAL_COMPUTE_VERSION(3, 7, 0)
            m_eDataType = GDT_Int8;
#else
            m_eDataType = GDT_Byte; /* with PIXELTYPE=SIGNEDBYTE */
#endif
            break;
        case RUMI_ENCODING_UINT16:
            m_eDataType = GDT_UInt16;
            break;
        case RUMI_ENCODING_INT16:
            m_eDataType = GDT_Int16;
            break;
        case RUMI_ENCODING_UINT32:
            m_eDataType = GDT_UInt32;
            break;
        case RUMI_ENCODING_INT32:
            m_eDataType = GDT_Int32;
            break;
#if GDAL_VERSION_NUM >= GDAL_COMPUTE_VERSION(3, 5, 0)
        case RUMI_ENCODING_UINT64:
            m_eDataType = GDT_UInt64;
            break;
        case RUMI_ENCODING_INT64:
            m_eDataType = GDT_Int64;
            break;
#endif
        case RUMI_ENCODING_FLOAT32:
            m_eDataType = GDT_Float32;
            break;
        case RUMI_ENCODING_FLOAT64:
            m_eDataType = GDT_Float64;
            break;
        case RUMI_ENCODING_COMPLEX64:
            m_eDataType = GDT_CFloat32;
            break;
        case RUMI_ENCODING_COMPLEX128:
            m_eDataType = GDT_CFloat64;
            break;
        default:
            break;
    }
    if (m_eDataType == GDT_Unknown)
    {
        if (rumi_output_sample_bytes(m_sInfo.encoding, RUMI_OUTPUT_FLOAT32) == 0)
        {
            CPLError(CE_Failure, CPLE_NotSupported, "RUMI: %s: %s samples have no GDAL data type in GDAL %s",
                     osPath.c_str(), pszEncoding ? pszEncoding : "?", GDALVersionInfo("RELEASE_NAME"));
            return false;
        }
        if (!bPromote)
        {
            CPLError(CE_Failure, CPLE_NotSupported,
                     "RUMI: %s: %s samples have no GDAL data type. Open with the open option PROMOTE=FLOAT32 "
                     "(e.g. gdalinfo -oo PROMOTE=FLOAT32) to read them converted exactly to %s",
                     osPath.c_str(), pszEncoding ? pszEncoding : "?",
                     m_sInfo.encoding == RUMI_ENCODING_COMPLEX32 ? "CFloat32" : "Float32");
            return false;
        }
        m_nOutput = RUMI_OUTPUT_FLOAT32;
        m_eDataType = m_sInfo.encoding == RUMI_ENCODING_COMPLEX32 ? GDT_CFloat32 : GDT_Float32;
    }
    m_nOutBytes = rumi_output_sample_bytes(m_sInfo.encoding, m_nOutput);
    if (m_nOutBytes != static_cast<size_t>(GDALGetDataTypeSizeBytes(m_eDataType)))
    {
        CPLError(CE_Failure, CPLE_AppDefined, "RUMI: %s: internal error: %u-byte samples for a %d-byte GDAL type",
                 osPath.c_str(), static_cast<unsigned>(m_nOutBytes), GDALGetDataTypeSizeBytes(m_eDataType));
        return false;
    }
    return true;
}

/* Sets a metadata item unless .aux.xml (PAM, loaded at open) already set it, and without
   marking PAM dirty: what the file says is not a change to save. */
static void SetFileItem(GDALMajorObject *poObj, const char *pszName, const char *pszValue, const char *pszDomain = "")
{
    if (pszValue != nullptr && poObj->GDALMajorObject::GetMetadataItem(pszName, pszDomain) == nullptr)
        poObj->GDALMajorObject::SetMetadataItem(pszName, pszValue, pszDomain);
}

void RUMIDataset::LoadGeoreferencing()
{
    if (m_bGeorefLoaded)
        return;
    m_bGeorefLoaded = true;
    rumi_georef sGeo{};
    if (rumi_get_georef(m_hRumi, &sGeo) != RUMI_OK)
    {
        ReportRumiError(m_osPath.c_str());
        return;
    }
    SetFileItem(this, GDALMD_AREA_OR_POINT, sGeo.raster_type == 2 ? GDALMD_AOP_POINT : GDALMD_AOP_AREA);
    if (sGeo.model == 0)
        return; /* undefined georeferencing: no CRS, the matrix is ignored (spec) */
    /* rumi affine (x_res, row_rot, x_origin, col_rot, y_res, y_origin) -> GDAL geotransform */
    m_adfGeoTransform[0] = sGeo.affine[2];
    m_adfGeoTransform[1] = sGeo.affine[0];
    m_adfGeoTransform[2] = sGeo.affine[1];
    m_adfGeoTransform[3] = sGeo.affine[5];
    m_adfGeoTransform[4] = sGeo.affine[3];
    m_adfGeoTransform[5] = sGeo.affine[4];
    /* PixelIsPoint: the transform maps pixel centres; GDAL's maps corners. Shift by half a pixel
       as the GTiff driver does (and, like it, not when GTIFF_POINT_GEO_IGNORE is set). */
    if (sGeo.raster_type == 2 && !CPLTestBool(CPLGetConfigOption("GTIFF_POINT_GEO_IGNORE", "FALSE")))
    {
        m_adfGeoTransform[0] -= m_adfGeoTransform[1] * 0.5 + m_adfGeoTransform[2] * 0.5;
        m_adfGeoTransform[3] -= m_adfGeoTransform[4] * 0.5 + m_adfGeoTransform[5] * 0.5;
    }
    m_bHasGeoTransform = true;
    m_oSRS.SetAxisMappingStrategy(OAMS_TRADITIONAL_GIS_ORDER);
    if (m_oSRS.importFromEPSG(static_cast<int>(sGeo.epsg)) == OGRERR_NONE)
        m_bHasSRS = true;
    else
        CPLError(CE_Warning, CPLE_AppDefined, "RUMI: EPSG:%u is not in the PROJ database; the dataset has no CRS",
                 sGeo.epsg);
}

/* What Open knows without reading the trailer or the georeferencing block. */
void RUMIDataset::SetupMetadata(const std::string &osHeader)
{
    const uint32_t nB = m_sInfo.bands;
    const char *pszEncoding = rumi_encoding_name(m_sInfo.encoding);

    /* IMAGE_STRUCTURE. The codec is COMPRESSION=OPENZL in the RUMI domain, not here: hosts map
       IMAGE_STRUCTURE/COMPRESSION to their own enum of GDAL's codecs (rasterio's Compression,
       whose profile and .compression raise ValueError for a name they do not know). */
    const uint32_t nUnit = m_sInfo.frame_unit;
    /* INTERLEAVE tells GDAL how to traverse the bands cheaply (as the JPEG 2000 drivers do):
       with cell frames (units 1 to 8) one frame holds every band of a tile, so all bands are
       best read together (PIXEL): GDAL's whole-raster copies then read all bands per swath
       instead of band by band, which decoded each cell once per band once the raster no
       longer fit in the block cache (3x the work, docs/performance.md). The exact frame
       layout is FRAME_LAYOUT in the RUMI domain. */
    const bool bPixel = m_sInfo.cell_frames != 0;
    SetMetadataItem("INTERLEAVE", bPixel ? "PIXEL" : "BAND", "IMAGE_STRUCTURE");

    /* RUMI domain (TIME_TYPE and TIME_SCALE come from the trailer: LoadTrailer) */
    SetMetadataItem("COMPRESSION", "OPENZL", "RUMI");
    SetMetadataItem("FRAME_UNIT", CPLSPrintf("%u", nUnit), "RUMI");
    SetMetadataItem("FRAME_LAYOUT", FrameLayout(nUnit, nB), "RUMI");
    SetMetadataItem("TILE_WIDTH", CPLSPrintf("%u", m_sInfo.tile_width), "RUMI");
    SetMetadataItem("TILE_LENGTH", CPLSPrintf("%u", m_sInfo.tile_length), "RUMI");
    SetMetadataItem("FRAME_COUNT", CPLSPrintf("%llu", static_cast<unsigned long long>(m_sInfo.frame_count)), "RUMI");
    SetMetadataItem("BAND_COUNT", CPLSPrintf("%u", nB), "RUMI");
    SetMetadataItem("TIME_COUNT", CPLSPrintf("%u", m_sInfo.times), "RUMI");
    SetMetadataItem("SAMPLE_ENCODING", pszEncoding ? pszEncoding : "", "RUMI");
    SetMetadataItem("OPEN_MODE", m_sInfo.stateless ? "STATELESS" : "VALIDATED", "RUMI");
    if (!osHeader.empty())
        SetMetadataItem("HEADER", osHeader.c_str(), "RUMI");
    if (m_nOutput == RUMI_OUTPUT_FLOAT32)
        SetMetadataItem("PROMOTED", "FLOAT32", "RUMI");
    if (m_nTimeIndex >= 0)
        SetMetadataItem("TIME_INDEX", CPLSPrintf("%d", m_nTimeIndex), "RUMI");

    for (int iBand = 1; iBand <= nBands; ++iBand)
    {
        auto poBand = static_cast<RUMIRasterBand *>(GetRasterBand(iBand));
        poBand->SetMetadataItem("BAND_INDEX", CPLSPrintf("%u", poBand->m_nRumiBand));
        if (m_sInfo.encoding == RUMI_ENCODING_BOOL)
            poBand->SetMetadataItem("NBITS", "1", "IMAGE_STRUCTURE");
#if GDAL_VERSION_NUM < GDAL_COMPUTE_VERSION(3, 7, 0)
        if (m_sInfo.encoding == RUMI_ENCODING_INT8)
            poBand->SetMetadataItem("PIXELTYPE", "SIGNEDBYTE", "IMAGE_STRUCTURE");
#endif
    }
}

/* Band texts, time labels and the subdataset list: from the trailer. */
void RUMIDataset::LoadTrailer()
{
    if (m_bTrailerLoaded)
        return;
    m_bTrailerLoaded = true;
    rumi_time_axis sAxis{};
    if (rumi_get_time_axis(m_hRumi, &sAxis) != RUMI_OK)
    {
        ReportRumiError(m_osPath.c_str());
        return;
    }
    const uint32_t nB = m_sInfo.bands;
    const uint32_t nT = m_sInfo.times;
    const bool bInterval = sAxis.kind == 1;

    SetFileItem(this, "TIME_TYPE", bInterval ? "INTERVAL" : "INSTANT", "RUMI");
    SetFileItem(this, "TIME_SCALE", CPLSPrintf("%u", sAxis.scale), "RUMI");

    auto SetTime = [bInterval](GDALMajorObject *poObj, rumi_dataset *h, uint32_t t) {
        if (bInterval)
        {
            SetFileItem(poObj, "TIME_START", rumi_time_text(h, t, RUMI_TIME_START));
            SetFileItem(poObj, "TIME_END", rumi_time_text(h, t, RUMI_TIME_END));
        }
        else
        {
            SetFileItem(poObj, "TIME", rumi_time_text(h, t, RUMI_TIME_START));
        }
    };

    const bool bCube = nT > 1 && m_nTimeIndex < 0;
    if (!bCube)
    {
        SetTime(this, m_hRumi, m_nTimeIndex < 0 ? 0 : static_cast<uint32_t>(m_nTimeIndex));
    }
    else
    {
        std::string osTimes;
        for (uint32_t t = 0; t < nT; ++t)
        {
            if (t)
                osTimes += ',';
            osTimes += rumi_time_text(m_hRumi, t, RUMI_TIME_STEP);
        }
        SetFileItem(this, "TIME_COUNT", CPLSPrintf("%u", nT));
        SetFileItem(this, "TIMES", osTimes.c_str());

        /* AddNameValue, not SetNameValue: the keys are new, and SetNameValue's search for an
           existing key made opening a Cube of 65536 time steps take 40 s (quadratic) */
        CPLStringList aosSubdatasets;
        for (uint32_t t = 0; t < nT; ++t)
        {
            aosSubdatasets.AddNameValue(CPLSPrintf("SUBDATASET_%u_NAME", t + 1),
                                        CPLSPrintf("%s\"%s\":%u", PREFIX, m_osPath.c_str(), t));
            aosSubdatasets.AddNameValue(CPLSPrintf("SUBDATASET_%u_DESC", t + 1),
                                        CPLSPrintf("Time step %u (%s) of %s: %u band(s)", t,
                                                   rumi_time_text(m_hRumi, t, RUMI_TIME_STEP), m_osPath.c_str(), nB));
        }
        if (GDALMajorObject::GetMetadata("SUBDATASETS") == nullptr)
            GDALMajorObject::SetMetadata(aosSubdatasets.List(), "SUBDATASETS");
    }

    for (int iBand = 1; iBand <= nBands; ++iBand)
    {
        auto poBand = static_cast<RUMIRasterBand *>(GetRasterBand(iBand));
        const char *pszText = rumi_band_text(m_hRumi, poBand->m_nRumiBand);
        const std::string osText = pszText ? pszText : "";
        SetFileItem(poBand, "BAND_TEXT", osText.c_str());
        std::string osDescription = osText;
        if (bCube)
        {
            osDescription = CPLSPrintf("%s @ %s", osText.c_str(),
                                       rumi_time_text(m_hRumi, poBand->m_nRumiTime, RUMI_TIME_STEP));
            SetFileItem(poBand, "TIME_INDEX", CPLSPrintf("%u", poBand->m_nRumiTime));
            SetTime(poBand, m_hRumi, poBand->m_nRumiTime);
        }
        if (poBand->GDALMajorObject::GetDescription()[0] == '\0')
            poBand->GDALMajorObject::SetDescription(osDescription.c_str());
    }
}

/* Which queries need the georeferencing block or the trailer: a whole domain that holds
   items they set, or one of those items (so that GetMetadataItem("OPEN_MODE", "RUMI") after a
   pixel read costs no request). */
static bool IsDefaultDomain(const char *pszDomain)
{
    return pszDomain == nullptr || pszDomain[0] == '\0';
}

static bool IsTrailerDomain(const char *pszDomain)
{
    return IsDefaultDomain(pszDomain) || EQUAL(pszDomain, "SUBDATASETS") || EQUAL(pszDomain, "RUMI");
}

static bool IsTrailerItem(const char *pszName, const char *pszDomain)
{
    if (IsDefaultDomain(pszDomain))
        return pszName != nullptr && (STARTS_WITH_CI(pszName, "TIME") || EQUAL(pszName, "BAND_TEXT"));
    if (EQUAL(pszDomain, "RUMI"))
        return pszName != nullptr && (EQUAL(pszName, "TIME_TYPE") || EQUAL(pszName, "TIME_SCALE"));
    return EQUAL(pszDomain, "SUBDATASETS");
}

char **RUMIDataset::GetMetadata(const char *pszDomain)
{
    if (IsDefaultDomain(pszDomain))
        LoadGeoreferencing();
    if (IsTrailerDomain(pszDomain))
        LoadTrailer();
    return GDALPamDataset::GetMetadata(pszDomain);
}

const char *RUMIDataset::GetMetadataItem(const char *pszName, const char *pszDomain)
{
    if (IsDefaultDomain(pszDomain) && pszName != nullptr && EQUAL(pszName, GDALMD_AREA_OR_POINT))
        LoadGeoreferencing();
    if (IsTrailerItem(pszName, pszDomain))
        LoadTrailer();
    return GDALPamDataset::GetMetadataItem(pszName, pszDomain);
}

char **RUMIDataset::GetMetadataDomainList()
{
    LoadGeoreferencing();
    LoadTrailer();
    return GDALPamDataset::GetMetadataDomainList();
}

const char *RUMIRasterBand::GetDescription() const
{
    static_cast<RUMIDataset *>(poDS)->LoadTrailer();
    return GDALPamRasterBand::GetDescription();
}

char **RUMIRasterBand::GetMetadata(const char *pszDomain)
{
    if (IsDefaultDomain(pszDomain))
        static_cast<RUMIDataset *>(poDS)->LoadTrailer();
    return GDALPamRasterBand::GetMetadata(pszDomain);
}

const char *RUMIRasterBand::GetMetadataItem(const char *pszName, const char *pszDomain)
{
    if (IsDefaultDomain(pszDomain) && IsTrailerItem(pszName, pszDomain))
        static_cast<RUMIDataset *>(poDS)->LoadTrailer();
    return GDALPamRasterBand::GetMetadataItem(pszName, pszDomain);
}

char **RUMIRasterBand::GetMetadataDomainList()
{
    static_cast<RUMIDataset *>(poDS)->LoadTrailer();
    return GDALPamRasterBand::GetMetadataDomainList();
}

/************************************************************************/
/*                           RUMIConfigLimits()                         */
/************************************************************************/

/* The resource limits configuration options may set (docs/reliability.md); see rumi_limits. */
static const struct
{
    const char *pszName;
    uint64_t rumi_limits::*pnField;
} asConfigLimits[] = {
    {"RUMI_MAX_FRAME_BYTES", &rumi_limits::max_frame_bytes},
    {"RUMI_MAX_FRAMES", &rumi_limits::max_frames},
    {"RUMI_MAX_TRAILER_BYTES", &rumi_limits::max_trailer_bytes},
    {"RUMI_MAX_TIME_COORDS", &rumi_limits::max_time_coords},
    {"RUMI_MAX_BANDS", &rumi_limits::max_bands},
    {"RUMI_MAX_READ_BYTES", &rumi_limits::max_read_bytes},
};

bool RUMIConfigLimits(rumi_limits &sLimits)
{
    rumi_limits_default(&sLimits);
    for (const auto &sOpt : asConfigLimits)
    {
        const char *pszValue = CPLGetConfigOption(sOpt.pszName, nullptr);
        if (pszValue == nullptr || pszValue[0] == '\0')
            continue;
        char *pszEnd = nullptr;
        errno = 0;
        const unsigned long long nValue = strtoull(pszValue, &pszEnd, 10);
        if (pszValue[0] < '0' || pszValue[0] > '9' || *pszEnd != '\0' || errno != 0 || nValue == 0)
        {
            CPLError(CE_Failure, CPLE_IllegalArg,
                     "RUMI: configuration option %s=%s is not a positive integer (default " CPL_FRMT_GUIB ")",
                     sOpt.pszName, pszValue, static_cast<GUIntBig>(sLimits.*sOpt.pnField));
            return false;
        }
        sLimits.*sOpt.pnField = static_cast<uint64_t>(nValue);
    }
    return true;
}

/* The files beside osPath, as GDALOpenInfo::GetSiblingFiles lists them for a plain file name
   (GDAL gives a RUMI:"..." name none): with GDAL_DISABLE_READDIR_ON_OPEN=EMPTY_DIR only the
   file itself, so that neither the sidecar blob nor .aux.xml/.ovr is probed (over /vsicurl/,
   a HEAD each); with TRUE none (NULL: probe each); otherwise the directory's listing. */
static char **SiblingFiles(const std::string &osPath)
{
    const char *pszOption = CPLGetConfigOption("GDAL_DISABLE_READDIR_ON_OPEN", "NO");
    if (EQUAL(pszOption, "EMPTY_DIR"))
        return CSLAddString(nullptr, CPLGetFilename(osPath.c_str()));
    if (CPLTestBool(pszOption))
        return nullptr;
    char **papszFiles = VSISiblingFiles(osPath.c_str());
    if (papszFiles != nullptr)
        return papszFiles;
    const int nMaxFiles = atoi(CPLGetConfigOption("GDAL_READDIR_LIMIT_ON_OPEN", "1000"));
    papszFiles = VSIReadDirEx(CPLGetDirname(osPath.c_str()), nMaxFiles);
    if (nMaxFiles > 0 && CSLCount(papszFiles) > nMaxFiles)
    {
        CSLDestroy(papszFiles);
        return nullptr;
    }
    return papszFiles;
}

GDALDataset *RUMIDataset::OpenImpl(GDALOpenInfo *poOpenInfo)
{
    if (!Identify(poOpenInfo))
        return nullptr;

    std::string osPath = poOpenInfo->pszFilename;
    int nTime = -1;
    const bool bPrefixed = STARTS_WITH_CI(poOpenInfo->pszFilename, PREFIX);
    if (bPrefixed && !ParseConnectionString(poOpenInfo->pszFilename, osPath, nTime))
        return nullptr;

    if (poOpenInfo->eAccess == GA_Update)
    {
        CPLError(CE_Failure, CPLE_NotSupported,
                 "RUMI: the driver is read-only: open '%s' without update access (rumi files are written "
                 "by the rumi writer)",
                 poOpenInfo->pszFilename);
        return nullptr;
    }

    /* Options */
    const char *pszPromote = CSLFetchNameValueDef(poOpenInfo->papszOpenOptions, "PROMOTE", "NONE");
    if (!EQUAL(pszPromote, "NONE") && !EQUAL(pszPromote, "FLOAT32"))
    {
        CPLError(CE_Failure, CPLE_IllegalArg, "RUMI: PROMOTE=%s is not supported: use NONE or FLOAT32", pszPromote);
        return nullptr;
    }
    const bool bPromote = EQUAL(pszPromote, "FLOAT32");
    rumi_limits sLimits{};
    if (!RUMIConfigLimits(sLimits))
        return nullptr;
    const char *pszMaxFrame = CSLFetchNameValue(poOpenInfo->papszOpenOptions, "MAX_FRAME_MB");
    if (pszMaxFrame != nullptr)
    {
        const GIntBig nMB = CPLAtoGIntBig(pszMaxFrame);
        if (nMB <= 0 || nMB > (static_cast<GIntBig>(1) << 40))
        {
            CPLError(CE_Failure, CPLE_IllegalArg, "RUMI: MAX_FRAME_MB=%s is not a positive number of MiB",
                     pszMaxFrame);
            return nullptr;
        }
        sLimits.max_frame_bytes = static_cast<uint64_t>(nMB) << 20;
    }

    /* The file, through VSI: reuse GDAL's handle when it opened the file itself. */
    VSILFILE *fp = nullptr;
    /* The first 16 KiB: /vsicurl/ fetched them in one chunk to identify the file, so reading
       them again costs no request; RUMIVsiSource serves reads inside them from memory. */
    constexpr int PREFIX_BYTES = 16384;
    std::vector<GByte> abyPrefix;
    if (!bPrefixed && poOpenInfo->fpL != nullptr)
    {
        poOpenInfo->TryToIngest(PREFIX_BYTES);
        if (poOpenInfo->pabyHeader != nullptr && poOpenInfo->nHeaderBytes > 0)
            abyPrefix.assign(poOpenInfo->pabyHeader,
                             poOpenInfo->pabyHeader + std::min(poOpenInfo->nHeaderBytes, PREFIX_BYTES));
        fp = poOpenInfo->fpL;
        poOpenInfo->fpL = nullptr;
    }
    else
    {
        fp = VSIFOpenL(osPath.c_str(), "rb");
        if (fp == nullptr)
        {
            CPLError(CE_Failure, CPLE_OpenFailed,
                     "RUMI: cannot open '%s'%s", osPath.c_str(),
                     bPrefixed && osPath.find(':') != std::string::npos && nTime < 0
                         ? " (a time step is selected with RUMI:\"<path>\":<time index>)"
                         : "");
            return nullptr;
        }
    }
    auto poDS = std::make_unique<RUMIDataset>();
    poDS->m_poSource = std::make_unique<RUMIVsiSource>(fp);
    poDS->m_poSource->SetPrefix(abyPrefix.data(), abyPrefix.size());

    /* The header blob: HEADER=<path> | NONE, else the sidecar <path>.header if present. */
    std::string osHeader;
    const char *pszHeader = CSLFetchNameValue(poOpenInfo->papszOpenOptions, "HEADER");
    CPLStringList aosPrefixedSiblings;
    if (bPrefixed)
        aosPrefixedSiblings.Assign(SiblingFiles(osPath), TRUE);
    char **papszSiblings = bPrefixed ? aosPrefixedSiblings.List() : poOpenInfo->GetSiblingFiles();
    if (pszHeader != nullptr)
    {
        if (!EQUAL(pszHeader, "NONE"))
            osHeader = pszHeader;
    }
    else
    {
        std::string osSidecar = osPath + ".header";
        std::vector<char> achSidecar(osSidecar.begin(), osSidecar.end());
        achSidecar.push_back('\0');
        if (CPLCheckForFile(achSidecar.data(), papszSiblings))
            osHeader = achSidecar.data();
    }
    std::vector<GByte> abyBlob;
    if (!osHeader.empty() && !IngestFile(osHeader, abyBlob, sLimits))
        return nullptr;

    const rumi_io sIo = poDS->m_poSource->AsIo();
    static const GByte byEmpty = 0; /* an empty blob is still a blob (and an invalid one) */
    const GByte *pabyBlob = osHeader.empty() ? nullptr : (abyBlob.empty() ? &byEmpty : abyBlob.data());
    const int nErr = rumi_open(&sIo, pabyBlob, abyBlob.size(), &sLimits, &poDS->m_hRumi);
    if (nErr != RUMI_OK)
    {
        if (osHeader.empty())
            ReportRumiError(osPath.c_str());
        else
            ReportRumiError(CPLSPrintf("%s (header blob %s)", osPath.c_str(), osHeader.c_str()));
        return nullptr;
    }
    if (rumi_get_info(poDS->m_hRumi, &poDS->m_sInfo) != RUMI_OK)
    {
        ReportRumiError(osPath.c_str());
        return nullptr;
    }
    const rumi_info &sInfo = poDS->m_sInfo;

    if (nTime >= 0 && static_cast<uint32_t>(nTime) >= sInfo.times)
    {
        CPLError(CE_Failure, CPLE_IllegalArg, "RUMI: time index %d is out of range: '%s' has %u time step(s) (0..%u)",
                 nTime, osPath.c_str(), sInfo.times, sInfo.times - 1);
        return nullptr;
    }
    poDS->m_nTimeIndex = nTime;
    if (!poDS->SetupDataType(bPromote, osPath))
        return nullptr;
    if ((poOpenInfo->nOpenFlags & GDAL_OF_MULTIDIM_RASTER) != 0)
        return RUMIMultiDimDataset::Open(std::move(poDS), osPath, osHeader, nTime); /* rumimultidim.cpp */

    if (sInfo.width > static_cast<uint32_t>(INT_MAX) || sInfo.length > static_cast<uint32_t>(INT_MAX))
    {
        CPLError(CE_Failure, CPLE_NotSupported, "RUMI: %s: %ux%u pixels exceed GDAL's raster size limit",
                 osPath.c_str(), sInfo.width, sInfo.length);
        return nullptr;
    }
    const bool bCube = sInfo.times > 1 && nTime < 0;
    const uint64_t nBandCount = bCube ? static_cast<uint64_t>(sInfo.times) * sInfo.bands : sInfo.bands;
    if (nBandCount > static_cast<uint64_t>(INT_MAX) || !GDALCheckBandCount(static_cast<int>(nBandCount), FALSE))
    {
        CPLError(CE_Failure, CPLE_NotSupported,
                 "RUMI: %s: %u time steps x %u bands are too many GDAL bands; open one time step with "
                 "RUMI:\"%s\":<time index>",
                 osPath.c_str(), sInfo.times, sInfo.bands, osPath.c_str());
        return nullptr;
    }
    poDS->nRasterXSize = static_cast<int>(sInfo.width);
    poDS->nRasterYSize = static_cast<int>(sInfo.length);
    for (uint64_t i = 0; i < nBandCount; ++i)
    {
        const uint32_t nB = static_cast<uint32_t>(i % sInfo.bands);
        const uint32_t nT = bCube ? static_cast<uint32_t>(i / sInfo.bands) : (nTime < 0 ? 0 : nTime);
        const int iBand = static_cast<int>(i) + 1;
        poDS->SetBand(iBand, new RUMIRasterBand(poDS.get(), iBand, nB, nT));
    }

    poDS->m_osPath = osPath;
    poDS->m_osHeader = osHeader;
    poDS->SetupMultiBlockRead(poOpenInfo);
    poDS->SetupMetadata(osHeader);

    /* PAM (.aux.xml) and external overviews (.ovr) */
    poDS->SetDescription(poOpenInfo->pszFilename);
    std::string osOverviewBase = osPath;
    if (nTime >= 0)
    {
        poDS->SetPhysicalFilename(osPath.c_str());
        poDS->SetSubdatasetName(CPLSPrintf("%d", nTime));
        osOverviewBase = osPath + CPLSPrintf(".t%d", nTime);
    }
    poDS->TryLoadXML(papszSiblings);
    poDS->oOvManager.Initialize(poDS.get(), osOverviewBase.c_str(), papszSiblings);
    /* what Open set is the file's, not a change to save in .aux.xml */
    poDS->SetPamFlags(poDS->GetPamFlags() & ~GPF_DIRTY);
    return poDS.release();
}

/************************************************************************/
/*                       rumi_gdal_register_driver()                    */
/************************************************************************/

extern "C" void rumi_gdal_register_driver(void) noexcept
{
    try
    {
        if (!GDAL_CHECK_VERSION(DRIVER_NAME))
            return;
        if (GDALGetDriverByName(DRIVER_NAME) != nullptr)
            return;
        auto poDriver = std::make_unique<GDALDriver>();
        poDriver->SetDescription(DRIVER_NAME);
        poDriver->SetMetadataItem(GDAL_DCAP_RASTER, "YES");
        poDriver->SetMetadataItem(GDAL_DCAP_MULTIDIM_RASTER, "YES");
        poDriver->SetMetadataItem(GDAL_DCAP_OPEN, "YES");
        poDriver->SetMetadataItem(GDAL_DMD_LONGNAME, "rumi stateless raster storage");
        poDriver->SetMetadataItem(GDAL_DMD_EXTENSION, "rumi");
        poDriver->SetMetadataItem(GDAL_DMD_EXTENSIONS, "rumi");
        poDriver->SetMetadataItem(GDAL_DCAP_VIRTUALIO, "YES");
        poDriver->SetMetadataItem(GDAL_DMD_SUBDATASETS, "YES");
        poDriver->SetMetadataItem(GDAL_DMD_CONNECTION_PREFIX, PREFIX);
        poDriver->SetMetadataItem("DMD_PLUGIN_VERSION", rumi_version());
        /* Resource limits (docs/reliability.md), read at every open; MAX_FRAME_MB overrides the first */
        poDriver->SetMetadataItem(
            "DMD_RUMI_CONFIG_OPTIONS",
            "<ConfigOptionList>"
            "  <Option name='RUMI_MAX_FRAME_BYTES' type='int' default='268435456' description='Largest decoded "
            "frame, in bytes (also bounds a compressed frame)'/>"
            "  <Option name='RUMI_MAX_FRAMES' type='int' default='16777216' description='Largest frame count N'/>"
            "  <Option name='RUMI_MAX_TRAILER_BYTES' type='int' default='67108864' description='Largest trailer "
            "(band texts and time coordinates), in bytes'/>"
            "  <Option name='RUMI_MAX_TIME_COORDS' type='int' default='4194304' description='Largest number of "
            "time coordinates C'/>"
            "  <Option name='RUMI_MAX_BANDS' type='int' default='65535' description='Largest band count B'/>"
            "  <Option name='RUMI_MAX_READ_BYTES' type='int' default='4294967296' description='Largest window "
            "one read may decode into memory, in bytes'/>"
            "</ConfigOptionList>");
        poDriver->SetMetadataItem(
            GDAL_DMD_OPENOPTIONLIST,
            "<OpenOptionList>"
            "  <Option name='HEADER' type='string' description='External header blob for a stateless open "
            "(any GDAL path, e.g. /vsis3/...), or NONE to parse and validate the file itself. Default: the "
            "sidecar file.rumi.header when it exists, else NONE'/>"
            "  <Option name='PROMOTE' type='string-select' default='NONE' description='Encodings GDAL has no "
            "data type for (float16, bfloat16, complex32, float8) are refused unless FLOAT32: then their "
            "values are converted exactly to Float32 (CFloat32 for complex32)'>"
            "    <Value>NONE</Value>"
            "    <Value>FLOAT32</Value>"
            "  </Option>"
            "  <Option name='MAX_FRAME_MB' type='int' default='256' description='Largest decoded frame to "
            "accept, in MiB (overrides the RUMI_MAX_FRAME_BYTES configuration option)'/>"
            "  <Option name='NUM_THREADS' type='string' description='Threads decoding the frames of a "
            "multi-block read: a number or ALL_CPUS. Default: the GDAL_NUM_THREADS configuration option, "
            "else 1'/>"
            "</OpenOptionList>");
        poDriver->pfnIdentify = RUMIDataset::Identify;
        poDriver->pfnOpen = RUMIDataset::Open;
        GetGDALDriverManager()->RegisterDriver(poDriver.release());
    }
    catch (...)
    {
        /* registration failed (out of memory): GDAL simply does not get the driver */
    }
}
