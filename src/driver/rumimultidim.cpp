/*
 * rumi GDAL driver: the multidimensional view. See rumimultidim.h.
 *
 * gdal.OpenEx(path, gdal.OF_MULTIDIM_RASTER) gives a root group "/" with
 *
 *   dimensions  time  (TEMPORAL, T; 1 for an Image, or for RUMI:"<path>":<t>)
 *               band  (B)
 *               y     (HORIZONTAL_Y, SOUTH or NORTH as the affine's y resolution says)
 *               x     (HORIZONTAL_X, EAST or WEST as the affine's x resolution says)
 *               nv    (2, only for interval time axes: the bounds of each step)
 *   arrays      data(time, band, y, x)   the samples; SRS, block size = the frame's shape,
 *                                        attributes frame_unit and encoding
 *               time(time)               Int64 coordinates in the file's time_scale units:
 *                                        "seconds since 1970-01-01T00:00:00Z" or "days since
 *                                        1970-01-01", calendar proleptic_gregorian. For
 *                                        intervals the coordinate is the START of each step
 *                                        (an exact integer; a midpoint may not be), and
 *               time_bounds(time, nv)    holds [start, end) of each step (CF "bounds")
 *               band(band)               the band texts (strings)
 *               y(y), x(x)               pixel-centre coordinates from the affine, only for
 *                                        an EPSG CRS without rotation (regularly spaced)
 *
 * Reading `data` maps the request (any start, count and step, negative steps included) onto
 * the frames that hold requested samples: per tile row, one frame per touched tile (cell
 * frames, units 1-8, hold every band and time step) or per touched tile and requested (band,
 * time) pair (units 0 and 9). Frames not in the array's cache of decoded frames are fetched
 * with one rumi_frames_read call (one multi-range read, decoded in parallel with
 * GDAL_NUM_THREADS); each needed plane is extracted once and strided / converted into the
 * caller's buffer with GDALExtendedDataType::CopyValues. Tiles, bands and time steps that hold
 * no requested sample are never read, so a (t, b, window) slice touches only its frames, and
 * the cache (RUMI_MULTIDIM_CACHE_MB, default a quarter of GDAL_CACHEMAX) makes line-by-line
 * readers (gdalmdiminfo -detailed, the classic view of a slice) decode each frame once.
 */
#include "rumimultidim.h"

#include "cpl_string.h"

#include <algorithm>
#include <cinttypes>
#include <exception>
#include <list>
#include <map>
#include <mutex>
#include <tuple>

namespace
{

/* Decoded bytes of the frames one rumi_frames_read call may return (at least one frame). */
constexpr GUInt64 MAX_BATCH_BYTES = static_cast<GUInt64>(64) << 20;


std::shared_ptr<GDALAttribute> StringAttr(const std::string &osParent, const char *pszName, const std::string &osValue)
{
    return std::make_shared<GDALAttributeString>(osParent, pszName, osValue);
}

std::shared_ptr<GDALAttribute> IntAttr(const std::string &osParent, const char *pszName, int nValue)
{
    return std::make_shared<GDALAttributeNumeric>(osParent, pszName, nValue);
}

/************************************************************************/
/*                            RUMIValuesArray                           */
/************************************************************************/

/* A small read-only array held in memory: the time coordinates, their bounds and the band
   texts. Numeric values are stored in the array's data type; strings as char pointers into
   m_aosStrings, which is what GDAL's string type holds. */
class RUMIValuesArray final : public GDALMDArray
{
  public:
    static std::shared_ptr<RUMIValuesArray> Create(const std::string &osParent, const std::string &osName,
                                                   std::vector<std::shared_ptr<GDALDimension>> apoDims,
                                                   const GDALExtendedDataType &oType, std::vector<GByte> abyValues,
                                                   std::vector<std::string> aosStrings,
                                                   std::vector<std::shared_ptr<GDALAttribute>> apoAttrs,
                                                   std::string osFilename)
    {
        auto poArray = std::shared_ptr<RUMIValuesArray>(new RUMIValuesArray(osParent, osName, oType));
        poArray->m_apoDims = std::move(apoDims);
        poArray->m_abyValues = std::move(abyValues);
        poArray->m_aosStrings = std::move(aosStrings);
        poArray->m_apoAttrs = std::move(apoAttrs);
        poArray->m_osFilename = std::move(osFilename);
        if (oType.GetClass() == GEDTC_STRING)
        {
            /* the vector is final: the pointers stay valid as long as the array lives */
            poArray->m_abyValues.resize(poArray->m_aosStrings.size() * sizeof(const char *));
            for (size_t i = 0; i < poArray->m_aosStrings.size(); ++i)
            {
                const char *psz = poArray->m_aosStrings[i].c_str();
                memcpy(poArray->m_abyValues.data() + i * sizeof(const char *), &psz, sizeof(psz));
            }
        }
        poArray->SetSelf(poArray);
        return poArray;
    }

    bool IsWritable() const override
    {
        return false;
    }

    const std::string &GetFilename() const override
    {
        return m_osFilename;
    }

    const std::vector<std::shared_ptr<GDALDimension>> &GetDimensions() const override
    {
        return m_apoDims;
    }

    const GDALExtendedDataType &GetDataType() const override
    {
        return m_oType;
    }

    std::vector<std::shared_ptr<GDALAttribute>> GetAttributes(CSLConstList) const override
    {
        return m_apoAttrs;
    }

  protected:
    bool IRead(const GUInt64 *arrayStartIdx, const size_t *count, const GInt64 *arrayStep,
               const GPtrDiff_t *bufferStride, const GDALExtendedDataType &bufferDataType,
               void *pDstBuffer) const override
    {
        const size_t nDims = m_apoDims.size();
        /* element strides of the stored values, C order */
        std::vector<GUInt64> anSrcStride(nDims, 1);
        for (size_t i = nDims; i-- > 1;)
            anSrcStride[i - 1] = anSrcStride[i] * m_apoDims[i]->GetSize();
        return CopyDim(0, 0, static_cast<GByte *>(pDstBuffer), arrayStartIdx, count, arrayStep, bufferStride,
                       bufferDataType, anSrcStride);
    }

  private:
    GDALExtendedDataType m_oType;
    std::vector<std::shared_ptr<GDALDimension>> m_apoDims{};
    std::vector<GByte> m_abyValues{};
    std::vector<std::string> m_aosStrings{};
    std::vector<std::shared_ptr<GDALAttribute>> m_apoAttrs{};
    std::string m_osFilename{};

    RUMIValuesArray(const std::string &osParent, const std::string &osName, const GDALExtendedDataType &oType)
        : GDALAbstractMDArray(osParent, osName), GDALMDArray(osParent, osName), m_oType(oType)
    {
    }

    bool CopyDim(size_t iDim, GUInt64 nSrcElt, GByte *pabyDst, const GUInt64 *arrayStartIdx, const size_t *count,
                 const GInt64 *arrayStep, const GPtrDiff_t *bufferStride, const GDALExtendedDataType &oDstType,
                 const std::vector<GUInt64> &anSrcStride) const
    {
        const size_t nSrcSize = m_oType.GetSize();
        const GPtrDiff_t nDstStep = bufferStride[iDim] * static_cast<GPtrDiff_t>(oDstType.GetSize());
        for (size_t i = 0; i < count[iDim]; ++i)
        {
            const GUInt64 nIdx = arrayStartIdx[iDim] + static_cast<GUInt64>(static_cast<GInt64>(i) * arrayStep[iDim]);
            const GUInt64 nElt = nSrcElt + nIdx * anSrcStride[iDim];
            GByte *pabyOut = pabyDst + static_cast<GPtrDiff_t>(i) * nDstStep;
            if (iDim + 1 < m_apoDims.size())
            {
                if (!CopyDim(iDim + 1, nElt, pabyOut, arrayStartIdx, count, arrayStep, bufferStride, oDstType,
                             anSrcStride))
                    return false;
            }
            else if (!GDALExtendedDataType::CopyValue(m_abyValues.data() + nElt * nSrcSize, m_oType, pabyOut,
                                                      oDstType))
            {
                return false;
            }
        }
        return true;
    }
};

/************************************************************************/
/*                             RUMIDataArray                            */
/************************************************************************/

/* The selected indices along one axis: start + i * step for i in [0, count). */
struct AxisRequest
{
    GUInt64 nStart;
    size_t nCount;
    GInt64 nStep;

    GUInt64 At(size_t i) const
    {
        return nStart + static_cast<GUInt64>(static_cast<GInt64>(i) * nStep);
    }
};

/* Consecutive request positions [iBegin, iEnd) whose indices fall in tile nTile. */
struct Run
{
    GUInt64 nTile;
    size_t iBegin;
    size_t iEnd;
};

/* Splits an axis request into runs of positions by tile. Indices are monotonic in the
   position, so each tile is visited by one run. */
std::vector<Run> RunsByTile(const AxisRequest &oReq, GUInt64 nTileSize)
{
    std::vector<Run> aoRuns;
    for (size_t i = 0; i < oReq.nCount; ++i)
    {
        const GUInt64 nTile = oReq.At(i) / nTileSize;
        if (!aoRuns.empty() && aoRuns.back().nTile == nTile)
            aoRuns.back().iEnd = i + 1;
        else
            aoRuns.push_back(Run{nTile, i, i + 1});
    }
    return aoRuns;
}

/* A requested index and the request positions that ask for it (several only for step 0). */
struct Selected
{
    uint32_t nValue;
    std::vector<size_t> anPos;
};

std::vector<Selected> DistinctValues(const AxisRequest &oReq)
{
    std::vector<Selected> aoOut;
    if (oReq.nStep == 0)
    {
        aoOut.push_back(Selected{static_cast<uint32_t>(oReq.nStart), {}});
        for (size_t i = 0; i < oReq.nCount; ++i)
            aoOut.back().anPos.push_back(i);
        return aoOut;
    }
    for (size_t i = 0; i < oReq.nCount; ++i)
        aoOut.push_back(Selected{static_cast<uint32_t>(oReq.At(i)), {i}});
    return aoOut;
}

struct FrameFree
{
    void operator()(rumi_frame *psFrame) const noexcept
    {
        rumi_frame_free(psFrame);
    }
};

using FrameKey = std::tuple<uint32_t, uint32_t, uint32_t, uint32_t>; /* row, col, band, time */

/* Decoded frames kept between reads, least recently used first out, bounded in bytes: small
   reads (gdalmdiminfo dumps values line by line; the classic view of a slice reads block by
   block and band by band) then decode each frame once. */
class FrameCache
{
  public:
    explicit FrameCache(size_t nCapacity) : m_nCapacity(nCapacity)
    {
    }

    std::shared_ptr<rumi_frame> Get(const FrameKey &oKey)
    {
        std::lock_guard<std::mutex> oLock(m_oMutex);
        const auto oIter = m_oIndex.find(oKey);
        if (oIter == m_oIndex.end())
            return nullptr;
        m_oLru.splice(m_oLru.begin(), m_oLru, oIter->second);
        return oIter->second->poFrame;
    }

    void Put(const FrameKey &oKey, const std::shared_ptr<rumi_frame> &poFrame, size_t nBytes)
    {
        std::lock_guard<std::mutex> oLock(m_oMutex);
        if (nBytes > m_nCapacity || m_oIndex.count(oKey) != 0)
            return;
        while (m_nBytes + nBytes > m_nCapacity && !m_oLru.empty())
        {
            m_nBytes -= m_oLru.back().nBytes;
            m_oIndex.erase(m_oLru.back().oKey);
            m_oLru.pop_back();
        }
        m_oLru.push_front(Entry{oKey, poFrame, nBytes});
        m_oIndex[oKey] = m_oLru.begin();
        m_nBytes += nBytes;
    }

  private:
    struct Entry
    {
        FrameKey oKey;
        std::shared_ptr<rumi_frame> poFrame;
        size_t nBytes;
    };

    std::mutex m_oMutex{};
    size_t m_nCapacity;
    size_t m_nBytes = 0;
    std::list<Entry> m_oLru{};
    std::map<FrameKey, std::list<Entry>::iterator> m_oIndex{};
};

/* RUMI_MULTIDIM_CACHE_MB, else a quarter of GDAL's block cache. */
size_t FrameCacheBytes()
{
    const char *pszMB = CPLGetConfigOption("RUMI_MULTIDIM_CACHE_MB", nullptr);
    if (pszMB != nullptr)
        return static_cast<size_t>(std::max<GIntBig>(0, CPLAtoGIntBig(pszMB))) << 20;
    return static_cast<size_t>(std::max<GIntBig>(GDALGetCacheMax64() / 4, 16 << 20));
}

class RUMIDataArray final : public GDALMDArray
{
  public:
    static std::shared_ptr<RUMIDataArray> Create(const std::string &osParent, std::shared_ptr<RUMIMDShared> poShared,
                                                 std::vector<std::shared_ptr<GDALDimension>> apoDims,
                                                 std::shared_ptr<OGRSpatialReference> poSRS)
    {
        auto poArray = std::shared_ptr<RUMIDataArray>(new RUMIDataArray(osParent, std::move(poShared)));
        poArray->m_apoDims = std::move(apoDims);
        poArray->m_poSRS = std::move(poSRS);
        poArray->SetSelf(poArray);
        return poArray;
    }

    bool IsWritable() const override
    {
        return false;
    }

    const std::string &GetFilename() const override
    {
        return m_poShared->osPath;
    }

    const std::vector<std::shared_ptr<GDALDimension>> &GetDimensions() const override
    {
        return m_apoDims;
    }

    const GDALExtendedDataType &GetDataType() const override
    {
        return m_oType;
    }

    std::vector<std::shared_ptr<GDALAttribute>> GetAttributes(CSLConstList) const override
    {
        return m_apoAttrs;
    }

    std::shared_ptr<OGRSpatialReference> GetSpatialRef() const override
    {
        if (!m_poSRS)
            return nullptr;
        return std::shared_ptr<OGRSpatialReference>(m_poSRS->Clone());
    }

    /* The frame's shape: one (band, time) pair of a tile for frame units 0 and 9, the whole
       cell (every band and time step) otherwise; tiles are clipped to the raster as in the
       classic view. */
    std::vector<GUInt64> GetBlockSize() const override
    {
        const rumi_info &sInfo = m_poShared->sInfo;
        const bool bCell = sInfo.cell_frames != 0;
        return {bCell ? m_poShared->nTimes : 1, bCell ? sInfo.bands : 1, std::min(sInfo.tile_length, sInfo.length),
                std::min(sInfo.tile_width, sInfo.width)};
    }

    CSLConstList GetStructuralInfo() const override
    {
        return m_aosStructuralInfo.List();
    }

  protected:
    bool IRead(const GUInt64 *arrayStartIdx, const size_t *count, const GInt64 *arrayStep,
               const GPtrDiff_t *bufferStride, const GDALExtendedDataType &bufferDataType,
               void *pDstBuffer) const override
    {
        try
        {
            return ReadImpl(arrayStartIdx, count, arrayStep, bufferStride, bufferDataType,
                            static_cast<GByte *>(pDstBuffer));
        }
        catch (const std::exception &e)
        {
            CPLError(CE_Failure, CPLE_AppDefined, "RUMI: %s", e.what());
            return false;
        }
    }

  private:
    std::shared_ptr<RUMIMDShared> m_poShared;
    GDALExtendedDataType m_oType;
    std::vector<std::shared_ptr<GDALDimension>> m_apoDims{};
    std::shared_ptr<OGRSpatialReference> m_poSRS{};
    std::vector<std::shared_ptr<GDALAttribute>> m_apoAttrs{};
    CPLStringList m_aosStructuralInfo{};
    mutable FrameCache m_oCache;
    uint32_t m_nThreads;

    RUMIDataArray(const std::string &osParent, std::shared_ptr<RUMIMDShared> poShared)
        : GDALAbstractMDArray(osParent, "data"), GDALMDArray(osParent, "data"), m_poShared(std::move(poShared)),
          m_oType(GDALExtendedDataType::Create(m_poShared->eDataType)), m_oCache(FrameCacheBytes()),
          m_nThreads(static_cast<uint32_t>(m_poShared->poFile->nThreads))
    {
        const rumi_info &sInfo = m_poShared->sInfo;
        const char *pszEncoding = rumi_encoding_name(sInfo.encoding);
        const std::string osFull = GetFullName();
        m_apoAttrs.push_back(IntAttr(osFull, "frame_unit", static_cast<int>(sInfo.frame_unit)));
        m_apoAttrs.push_back(StringAttr(osFull, "encoding", pszEncoding ? pszEncoding : ""));
        m_aosStructuralInfo.SetNameValue("COMPRESSION", "OPENZL");
        m_aosStructuralInfo.SetNameValue("FRAME_UNIT", CPLSPrintf("%u", sInfo.frame_unit));
        if (m_poShared->poFile->nOutput == RUMI_OUTPUT_FLOAT32)
            m_aosStructuralInfo.SetNameValue("PROMOTED", "FLOAT32");
        if (m_poShared->bWidenInt8)
            m_aosStructuralInfo.SetNameValue("PROMOTED", "INT16");
    }

    /* One frame a read needs: which tile runs it serves and, for tile frames, which
       requested time step and band it holds (NULL for cell frames: they hold them all). */
    struct Need
    {
        FrameKey oKey;
        const Run *poYRun;
        const Run *poXRun;
        const Selected *poTime;
        const Selected *poBand;
    };

    size_t FrameBytes(uint32_t nRow, uint32_t nCol) const;
    bool GetFrames(const std::vector<Need> &aoNeeds, std::vector<std::shared_ptr<rumi_frame>> &apoFrames,
                   GUInt64 &nRead) const;
    bool ReadImpl(const GUInt64 *arrayStartIdx, const size_t *count, const GInt64 *arrayStep,
                  const GPtrDiff_t *bufferStride, const GDALExtendedDataType &oDstType, GByte *pabyDst) const;
};

size_t RUMIDataArray::FrameBytes(uint32_t nRow, uint32_t nCol) const
{
    const rumi_info &sInfo = m_poShared->sInfo;
    uint32_t nHeight = 0, nWidth = 0;
    rumi_tile_dims(m_poShared->hRumi, nRow, nCol, &nHeight, &nWidth);
    const size_t nPlane = static_cast<size_t>(nHeight) * nWidth * sInfo.sample_bytes;
    return sInfo.cell_frames ? nPlane * sInfo.bands * sInfo.times : nPlane;
}

/* The decoded frames of aoNeeds, from the cache or read in one batch (one multi-range read,
   decoded on m_nThreads threads). nRead counts the frames read from the file. */
bool RUMIDataArray::GetFrames(const std::vector<Need> &aoNeeds, std::vector<std::shared_ptr<rumi_frame>> &apoFrames,
                              GUInt64 &nRead) const
{
    apoFrames.assign(aoNeeds.size(), nullptr);
    std::vector<size_t> anMissing;
    std::vector<rumi_frame_key> asKeys;
    for (size_t i = 0; i < aoNeeds.size(); ++i)
    {
        apoFrames[i] = m_oCache.Get(aoNeeds[i].oKey);
        if (!apoFrames[i])
        {
            anMissing.push_back(i);
            const FrameKey &oKey = aoNeeds[i].oKey;
            asKeys.push_back(rumi_frame_key{std::get<0>(oKey), std::get<1>(oKey), std::get<2>(oKey), std::get<3>(oKey)});
        }
    }
    if (anMissing.empty())
        return true;
    std::vector<rumi_frame *> apsRaw(anMissing.size(), nullptr);
    if (rumi_frames_read(m_poShared->hRumi, asKeys.data(), asKeys.size(), m_nThreads, apsRaw.data()) != RUMI_OK)
    {
        RUMIReportError(CPLSPrintf("%s: reading %zu frame(s)", m_poShared->osPath.c_str(), asKeys.size()));
        return false;
    }
    for (size_t j = 0; j < anMissing.size(); ++j)
    {
        std::shared_ptr<rumi_frame> poFrame(apsRaw[j], FrameFree());
        const Need &oNeed = aoNeeds[anMissing[j]];
        m_oCache.Put(oNeed.oKey, poFrame, FrameBytes(std::get<0>(oNeed.oKey), std::get<1>(oNeed.oKey)));
        apoFrames[anMissing[j]] = std::move(poFrame);
    }
    nRead += anMissing.size();
    return true;
}

bool RUMIDataArray::ReadImpl(const GUInt64 *arrayStartIdx, const size_t *count, const GInt64 *arrayStep,
                             const GPtrDiff_t *bufferStride, const GDALExtendedDataType &oDstType,
                             GByte *pabyDst) const
{
    const RUMIMDShared &oShared = *m_poShared;
    const rumi_info &sInfo = oShared.sInfo;
    const AxisRequest oT{arrayStartIdx[0] + oShared.nTimeOffset, count[0], arrayStep[0]};
    const AxisRequest oB{arrayStartIdx[1], count[1], arrayStep[1]};
    const AxisRequest oY{arrayStartIdx[2], count[2], arrayStep[2]};
    const AxisRequest oX{arrayStartIdx[3], count[3], arrayStep[3]};
    for (const size_t n : {oT.nCount, oB.nCount, oY.nCount, oX.nCount})
    {
        if (n == 0)
            return true;
    }
    const bool bCell = sInfo.cell_frames != 0;
    const std::vector<Selected> aoTimes = DistinctValues(oT);
    const std::vector<Selected> aoBands = DistinctValues(oB);
    const std::vector<Run> aoYRuns = RunsByTile(oY, sInfo.tile_length);
    const std::vector<Run> aoXRuns = RunsByTile(oX, sInfo.tile_width);

    const GDALExtendedDataType oSrcType = GDALExtendedDataType::Create(oShared.eDataType);
    const size_t nSrcSize = oSrcType.GetSize();
    const GPtrDiff_t nDstSize = static_cast<GPtrDiff_t>(oDstType.GetSize());
    std::vector<GByte> abyPlane;
    std::vector<GByte> abyWide;
    std::vector<std::shared_ptr<rumi_frame>> apoFrames;
    GUInt64 nNeeded = 0;
    GUInt64 nRead = 0;

    /* Copies the requested samples of plane (band, time) of a decoded frame into the buffer. */
    const auto Scatter = [&](const rumi_frame *psFrame, const Need &oNeed, const Selected &oTime,
                             const Selected &oBand) -> bool
    {
        uint32_t nRow = 0, nCol = 0, nHeight = 0, nWidth = 0;
        rumi_frame_dims(psFrame, &nRow, &nCol, &nHeight, &nWidth);
        const size_t nLine = static_cast<size_t>(nWidth) * static_cast<size_t>(GDALGetDataTypeSizeBytes(oShared.poFile->eDataType));
        abyPlane.resize(nLine * nHeight);
        if (rumi_frame_extract(oShared.hRumi, psFrame, oBand.nValue, oTime.nValue, oShared.poFile->nOutput,
                               abyPlane.data(), abyPlane.size(), nLine) != RUMI_OK)
        {
            RUMIReportError(CPLSPrintf("%s: tile (%u, %u), band %u, time %u", oShared.osPath.c_str(), nRow, nCol,
                                       oBand.nValue, oTime.nValue));
            return false;
        }
        const GByte *pabySrc = abyPlane.data();
        if (oShared.bWidenInt8)
        {
            abyWide.resize(abyPlane.size() * sizeof(GInt16));
            for (size_t i = 0; i < abyPlane.size(); ++i)
            {
                const GInt16 nValue = static_cast<int8_t>(abyPlane[i]);
                memcpy(abyWide.data() + i * sizeof(GInt16), &nValue, sizeof(nValue));
            }
            pabySrc = abyWide.data();
        }
        const Run &oYRun = *oNeed.poYRun;
        const Run &oXRun = *oNeed.poXRun;
        const GUInt64 nY0 = static_cast<GUInt64>(nRow) * sInfo.tile_length;
        const GUInt64 nSrcX = oX.At(oXRun.iBegin) - static_cast<GUInt64>(nCol) * sInfo.tile_width;
        const size_t nXCount = oXRun.iEnd - oXRun.iBegin;
        for (const size_t it : oTime.anPos)
        {
            for (const size_t ib : oBand.anPos)
            {
                for (size_t iy = oYRun.iBegin; iy < oYRun.iEnd; ++iy)
                {
                    const GUInt64 nSrcElt = (oY.At(iy) - nY0) * nWidth + nSrcX;
                    const GPtrDiff_t nDstElt =
                        static_cast<GPtrDiff_t>(it) * bufferStride[0] + static_cast<GPtrDiff_t>(ib) * bufferStride[1] +
                        static_cast<GPtrDiff_t>(iy) * bufferStride[2] +
                        static_cast<GPtrDiff_t>(oXRun.iBegin) * bufferStride[3];
                    if (!GDALExtendedDataType::CopyValues(pabySrc + nSrcElt * nSrcSize, oSrcType,
                                                          static_cast<GPtrDiff_t>(oX.nStep),
                                                          pabyDst + nDstElt * nDstSize, oDstType, bufferStride[3],
                                                          nXCount))
                        return false;
                }
            }
        }
        return true;
    };

    for (const Run &oYRun : aoYRuns)
    {
        /* The frames of this tile row, in batches of about MAX_BATCH_BYTES of decoded samples;
           a tile frame serves one (time, band) pair, a cell frame every requested one. */
        std::vector<Need> aoNeeds;
        size_t nBatchBytes = 0;
        const auto Flush = [&]() -> bool
        {
            if (aoNeeds.empty())
                return true;
            if (!GetFrames(aoNeeds, apoFrames, nRead))
                return false;
            for (size_t i = 0; i < aoNeeds.size(); ++i)
            {
                const Need &oNeed = aoNeeds[i];
                if (!bCell)
                {
                    if (!Scatter(apoFrames[i].get(), oNeed, *oNeed.poTime, *oNeed.poBand))
                        return false;
                    continue;
                }
                for (const Selected &oTime : aoTimes)
                {
                    for (const Selected &oBand : aoBands)
                    {
                        if (!Scatter(apoFrames[i].get(), oNeed, oTime, oBand))
                            return false;
                    }
                }
            }
            nNeeded += aoNeeds.size();
            aoNeeds.clear();
            apoFrames.clear();
            nBatchBytes = 0;
            return true;
        };
        const auto nRow = static_cast<uint32_t>(oYRun.nTile);
        for (const Run &oXRun : aoXRuns)
        {
            const auto nCol = static_cast<uint32_t>(oXRun.nTile);
            const size_t nFrameBytes = FrameBytes(nRow, nCol);
            if (bCell)
            {
                aoNeeds.push_back(Need{FrameKey{nRow, nCol, 0, 0}, &oYRun, &oXRun, nullptr, nullptr});
                nBatchBytes += nFrameBytes;
                if (nBatchBytes >= MAX_BATCH_BYTES && !Flush())
                    return false;
                continue;
            }
            for (const Selected &oTime : aoTimes)
            {
                for (const Selected &oBand : aoBands)
                {
                    aoNeeds.push_back(
                        Need{FrameKey{nRow, nCol, oBand.nValue, oTime.nValue}, &oYRun, &oXRun, &oTime, &oBand});
                    nBatchBytes += nFrameBytes;
                    if (nBatchBytes >= MAX_BATCH_BYTES && !Flush())
                        return false;
                }
            }
        }
        if (!Flush())
            return false;
    }
    CPLDebug("RUMI",
             "multidim read of %s: t %" PRIu64 "+%zu*%" PRId64 ", b %" PRIu64 "+%zu*%" PRId64 ", y %" PRIu64
             "+%zu*%" PRId64 ", x %" PRIu64 "+%zu*%" PRId64 ": %" PRIu64 " frame(s) needed, %" PRIu64
             " read from the file",
             oShared.osPath.c_str(), static_cast<uint64_t>(oT.nStart), oT.nCount, static_cast<int64_t>(oT.nStep),
             static_cast<uint64_t>(oB.nStart), oB.nCount, static_cast<int64_t>(oB.nStep),
             static_cast<uint64_t>(oY.nStart), oY.nCount, static_cast<int64_t>(oY.nStep),
             static_cast<uint64_t>(oX.nStart), oX.nCount, static_cast<int64_t>(oX.nStep),
             static_cast<uint64_t>(nNeeded), static_cast<uint64_t>(nRead));
    return true;
}

/************************************************************************/
/*                               RUMIGroup                              */
/************************************************************************/

class RUMIGroup final : public GDALGroup
{
  public:
    RUMIGroup() : GDALGroup(std::string(), "/")
    {
    }

    void AddDimension(std::shared_ptr<GDALDimension> poDim)
    {
        m_apoDims.push_back(std::move(poDim));
    }

    void AddArray(std::shared_ptr<GDALMDArray> poArray)
    {
        m_aosArrayNames.push_back(poArray->GetName());
        m_oArrays[poArray->GetName()] = std::move(poArray);
    }

    std::vector<std::string> GetMDArrayNames(CSLConstList) const override
    {
        return m_aosArrayNames;
    }

    std::shared_ptr<GDALMDArray> OpenMDArray(const std::string &osName, CSLConstList) const override
    {
        const auto oIter = m_oArrays.find(osName);
        return oIter == m_oArrays.end() ? nullptr : oIter->second;
    }

    std::vector<std::shared_ptr<GDALDimension>> GetDimensions(CSLConstList) const override
    {
        return m_apoDims;
    }

  private:
    std::vector<std::shared_ptr<GDALDimension>> m_apoDims{};
    std::vector<std::string> m_aosArrayNames{};
    std::map<std::string, std::shared_ptr<GDALMDArray>> m_oArrays{};
};

/* CF spelling of a CRS linear unit name. */
std::string CFLinearUnit(const char *pszName)
{
    if (pszName == nullptr)
        return "m";
    if (EQUAL(pszName, "metre") || EQUAL(pszName, "meter"))
        return "m";
    if (EQUAL(pszName, "foot"))
        return "ft";
    if (EQUAL(pszName, "US survey foot"))
        return "US_survey_foot";
    return pszName;
}

/* Builds the root group of a file's multidimensional view (see the top of this file). */
class GroupBuilder
{
  public:
    explicit GroupBuilder(std::shared_ptr<RUMIMDShared> poShared)
        : m_poShared(std::move(poShared)), m_poGroup(std::make_shared<RUMIGroup>()),
          m_osParent(m_poGroup->GetFullName())
    {
    }

    /* NULL, with a CPLError, when the georeferencing or the time coordinates cannot be read. */
    std::shared_ptr<RUMIGroup> Build()
    {
        if (!MakeDimensions() || !MakeTime())
            return nullptr;
        MakeSRS();
        MakeBand();
        MakeXY();
        /* indexing variables first: copies (gdalmdimtranslate) then create them before `data`,
           whose CF grid mapping refers to them */
        for (const auto &poArray : {m_poTime, m_poBounds, m_poBand, m_poY, m_poX})
        {
            if (poArray)
                m_poGroup->AddArray(poArray);
        }
        m_poGroup->AddArray(RUMIDataArray::Create(m_osParent, m_poShared, {m_poTimeDim, m_poBandDim, m_poYDim, m_poXDim},
                                                  m_poSRS));
        return m_poGroup;
    }

  private:
    std::shared_ptr<RUMIMDShared> m_poShared;
    std::shared_ptr<RUMIGroup> m_poGroup;
    std::string m_osParent;
    rumi_georef m_sGeo{};
    double m_adfGT[6] = {0, 1, 0, 0, 0, 1}; /* GDAL order, pixel corners */
    bool m_bNorthUp = false;
    std::shared_ptr<GDALDimensionWeakIndexingVar> m_poTimeDim{}, m_poBandDim{}, m_poYDim{}, m_poXDim{};
    std::shared_ptr<GDALMDArray> m_poTime{}, m_poBounds{}, m_poBand{}, m_poY{}, m_poX{};
    std::shared_ptr<OGRSpatialReference> m_poSRS{};

    bool MakeDimensions();
    bool MakeTime();
    void MakeSRS();
    void MakeBand();
    void MakeXY();
};

bool GroupBuilder::MakeDimensions()
{
    const RUMIMDShared &oShared = *m_poShared;
    if (rumi_get_georef(oShared.hRumi, &m_sGeo) != RUMI_OK || rumi_get_geotransform(oShared.hRumi, 1, m_adfGT) != RUMI_OK)
    {
        RUMIReportError(oShared.osPath.c_str());
        return false;
    }
    m_bNorthUp = m_sGeo.model != 0 && m_adfGT[2] == 0 && m_adfGT[4] == 0;
    const char *pszY = m_bNorthUp ? (m_adfGT[5] < 0 ? "SOUTH" : "NORTH") : "";
    const char *pszX = m_bNorthUp ? (m_adfGT[1] < 0 ? "WEST" : "EAST") : "";
    m_poTimeDim = std::make_shared<GDALDimensionWeakIndexingVar>(m_osParent, "time", GDAL_DIM_TYPE_TEMPORAL,
                                                                 std::string(), oShared.nTimes);
    m_poBandDim = std::make_shared<GDALDimensionWeakIndexingVar>(m_osParent, "band", std::string(), std::string(),
                                                                 oShared.sInfo.bands);
    m_poYDim = std::make_shared<GDALDimensionWeakIndexingVar>(m_osParent, "y", GDAL_DIM_TYPE_HORIZONTAL_Y, pszY,
                                                              oShared.sInfo.length);
    m_poXDim = std::make_shared<GDALDimensionWeakIndexingVar>(m_osParent, "x", GDAL_DIM_TYPE_HORIZONTAL_X, pszX,
                                                              oShared.sInfo.width);
    for (const auto &poDim : {m_poTimeDim, m_poBandDim, m_poYDim, m_poXDim})
        m_poGroup->AddDimension(poDim);
    return true;
}

/* The SRS, with the data axis mapping of (time, band, y, x). */
void GroupBuilder::MakeSRS()
{
    if (m_sGeo.model == 0)
        return;
    m_poSRS = std::make_shared<OGRSpatialReference>();
    m_poSRS->SetAxisMappingStrategy(OAMS_TRADITIONAL_GIS_ORDER);
    if (m_poSRS->importFromEPSG(static_cast<int>(m_sGeo.epsg)) != OGRERR_NONE)
    {
        CPLError(CE_Warning, CPLE_AppDefined, "RUMI: EPSG:%u is not in the PROJ database; the array has no CRS",
                 m_sGeo.epsg);
        m_poSRS.reset();
        return;
    }
    /* traditional GIS order maps SRS axes to (1 = x, 2 = y); x and y are the 4th and 3rd
       dimensions here */
    std::vector<int> anMapping = m_poSRS->GetDataAxisToSRSAxisMapping();
    for (int &nAxis : anMapping)
        nAxis = nAxis == 1 ? 4 : (nAxis == 2 ? 3 : nAxis);
    m_poSRS->SetDataAxisToSRSAxisMapping(anMapping);
}

/* time: coordinates (interval starts) and, for intervals, their bounds. */
bool GroupBuilder::MakeTime()
{
    const RUMIMDShared &oShared = *m_poShared;
    rumi_time_axis sAxis{};
    size_t nCoords = 0;
    std::vector<int64_t> anCoords;
    if (rumi_get_time_axis(oShared.hRumi, &sAxis) == RUMI_OK &&
        rumi_time_coords(oShared.hRumi, nullptr, 0, &nCoords) == RUMI_OK)
    {
        anCoords.resize(nCoords);
        if (rumi_time_coords(oShared.hRumi, anCoords.data(), anCoords.size(), &nCoords) != RUMI_OK)
            nCoords = 0;
    }
    const bool bInterval = sAxis.kind == 1;
    if (sAxis.kind == 0 || nCoords != static_cast<size_t>(oShared.sInfo.times) * (bInterval ? 2 : 1))
    {
        RUMIReportError(CPLSPrintf("%s: time coordinates", oShared.osPath.c_str()));
        return false;
    }
    const std::string osUnits = sAxis.scale == 86400 ? "days since 1970-01-01" : "seconds since 1970-01-01T00:00:00Z";
    const GDALExtendedDataType oInt64 = GDALExtendedDataType::Create(GDT_Int64);
    std::vector<GByte> abyTime(static_cast<size_t>(oShared.nTimes) * sizeof(int64_t));
    std::vector<GByte> abyBounds;
    for (uint32_t t = 0; t < oShared.nTimes; ++t)
    {
        const size_t k = oShared.nTimeOffset + t;
        memcpy(abyTime.data() + t * sizeof(int64_t), &anCoords[bInterval ? 2 * k : k], sizeof(int64_t));
        if (bInterval)
            abyBounds.insert(abyBounds.end(), reinterpret_cast<const GByte *>(&anCoords[2 * k]),
                             reinterpret_cast<const GByte *>(&anCoords[2 * k + 2]));
    }
    const std::string osFull = m_osParent + "time";
    std::vector<std::shared_ptr<GDALAttribute>> apoAttrs{
        StringAttr(osFull, "standard_name", "time"),
        StringAttr(osFull, "long_name", bInterval ? "start of the time step" : "time"),
        StringAttr(osFull, "units", osUnits),
        StringAttr(osFull, "calendar", "proleptic_gregorian"),
        StringAttr(osFull, "axis", "T"),
    };
    if (bInterval)
        apoAttrs.push_back(StringAttr(osFull, "bounds", "time_bounds"));
    m_poTime = RUMIValuesArray::Create(m_osParent, "time", {m_poTimeDim}, oInt64, std::move(abyTime), {},
                                       std::move(apoAttrs), oShared.osPath);
    m_poTimeDim->SetIndexingVariable(m_poTime);
    if (!bInterval)
        return true;
    auto poNvDim = std::make_shared<GDALDimension>(m_osParent, "nv", std::string(), std::string(), 2);
    m_poGroup->AddDimension(poNvDim);
    const std::string osBoundsFull = m_osParent + "time_bounds";
    m_poBounds = RUMIValuesArray::Create(
        m_osParent, "time_bounds", {m_poTimeDim, poNvDim}, oInt64, std::move(abyBounds), {},
        {StringAttr(osBoundsFull, "long_name", "start and end (exclusive) of the time step"),
         StringAttr(osBoundsFull, "units", osUnits), StringAttr(osBoundsFull, "calendar", "proleptic_gregorian")},
        oShared.osPath);
    return true;
}

/* band: the band texts. */
void GroupBuilder::MakeBand()
{
    std::vector<std::string> aosTexts;
    size_t nMaxLen = 1; /* a bounded string type: Zarr cannot store strings of unlimited size */
    for (uint32_t b = 0; b < m_poShared->sInfo.bands; ++b)
    {
        const char *pszText = rumi_band_text(m_poShared->hRumi, b);
        aosTexts.emplace_back(pszText ? pszText : "");
        nMaxLen = std::max(nMaxLen, aosTexts.back().size());
    }
    m_poBand = RUMIValuesArray::Create(m_osParent, "band", {m_poBandDim}, GDALExtendedDataType::CreateString(nMaxLen),
                                       {}, std::move(aosTexts),
                                       {StringAttr(m_osParent + "band", "long_name", "band description")},
                                       m_poShared->osPath);
    m_poBandDim->SetIndexingVariable(m_poBand);
}

/* y, x: pixel centres, for a north-up grid only (regularly spaced). */
void GroupBuilder::MakeXY()
{
    if (!m_bNorthUp)
        return;
    auto poY = GDALMDArrayRegularlySpaced::Create(m_osParent, "y", m_poYDim, m_adfGT[3], m_adfGT[5], 0.5);
    auto poX = GDALMDArrayRegularlySpaced::Create(m_osParent, "x", m_poXDim, m_adfGT[0], m_adfGT[1], 0.5);
    const std::string osYFull = m_osParent + "y", osXFull = m_osParent + "x";
    if (m_poSRS && m_poSRS->IsGeographic())
    {
        poY->AddAttribute(StringAttr(osYFull, "standard_name", "latitude"));
        poY->AddAttribute(StringAttr(osYFull, "units", "degrees_north"));
        poX->AddAttribute(StringAttr(osXFull, "standard_name", "longitude"));
        poX->AddAttribute(StringAttr(osXFull, "units", "degrees_east"));
    }
    else if (m_poSRS)
    {
        const char *pszUnit = nullptr;
        m_poSRS->GetLinearUnits(&pszUnit);
        const std::string osUnit = CFLinearUnit(pszUnit);
        poY->AddAttribute(StringAttr(osYFull, "standard_name", "projection_y_coordinate"));
        poY->AddAttribute(StringAttr(osYFull, "units", osUnit));
        poX->AddAttribute(StringAttr(osXFull, "standard_name", "projection_x_coordinate"));
        poX->AddAttribute(StringAttr(osXFull, "units", osUnit));
    }
    m_poY = poY;
    m_poX = poX;
    m_poYDim->SetIndexingVariable(m_poY);
    m_poXDim->SetIndexingVariable(m_poX);
}

}  // namespace

/************************************************************************/
/*                          RUMIMultiDimDataset                         */
/************************************************************************/

RUMIMultiDimDataset::~RUMIMultiDimDataset() = default;

char **RUMIMultiDimDataset::GetFileList()
{
    CPLStringList aosFiles;
    for (const std::string &osFile : {m_poShared->poFile->osPath, m_poShared->poFile->osHeader})
    {
        if (!osFile.empty())
            aosFiles.AddString(osFile.c_str());
    }
    return aosFiles.StealList();
}

GDALDataset *RUMIMultiDimDataset::Open(std::shared_ptr<RUMIFile> poFile, int nTime)
{
    auto poShared = std::make_shared<RUMIMDShared>();
    poShared->hRumi = poFile->hRumi;
    poShared->sInfo = poFile->sInfo;
    poShared->osPath = poFile->osPath;
    poShared->eDataType = poFile->eDataType;
#if GDAL_VERSION_NUM < GDAL_COMPUTE_VERSION(3, 7, 0)
    if (poFile->sInfo.encoding == RUMI_ENCODING_INT8)
    {
        poShared->eDataType = GDT_Int16; /* no Int8 before GDAL 3.7; SIGNEDBYTE is a classic-only hint */
        poShared->bWidenInt8 = true;
    }
#endif
    poShared->nTimeOffset = nTime >= 0 ? static_cast<uint32_t>(nTime) : 0;
    poShared->nTimes = nTime >= 0 ? 1 : poFile->sInfo.times;
    poShared->poFile = std::move(poFile);
    std::shared_ptr<RUMIGroup> poGroup = GroupBuilder(poShared).Build();
    if (!poGroup)
        return nullptr;
    auto poDS = std::make_unique<RUMIMultiDimDataset>();
    poDS->m_poShared = std::move(poShared);
    poDS->m_poRootGroup = std::move(poGroup);
    return poDS.release();
}
