/* rumi GDAL driver: the multidimensional view (rumimultidim.h; its dimensions and arrays: ARCHITECTURE.md,
 * "The GDAL adapter"). Reading `data` is one rumi_read of the selection (GDAL's start, count, step, strides). */
#include "rumimultidim.h"

#include "cpl_string.h"

#include <algorithm>
#include <cinttypes>
#include <exception>
#include <map>

namespace
{

std::shared_ptr<GDALAttribute> StringAttr(const std::string &osParent, const char *pszName, const std::string &osValue)
{
    return std::make_shared<GDALAttributeString>(osParent, pszName, osValue);
}

/* --- RUMIDataArray --- */

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
        return m_poShared->poFile->osPath;
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
        const rumi_info &sInfo = m_poShared->poFile->sInfo;
        const bool bCell = sInfo.cell_frames != 0;
        return {bCell ? m_poShared->nTimes : 1, bCell ? sInfo.bands : 1, std::min(sInfo.tile_length, sInfo.length),
                std::min(sInfo.tile_width, sInfo.width)};
    }

    CSLConstList GetStructuralInfo() const override
    {
        return m_aosStructuralInfo.List();
    }

    /* the PAM sidecar's values when every band agrees (RUMI_MD_DATA_PAM) */
    const std::string &GetUnit() const override
    {
        return m_osUnit;
    }

    const void *GetRawNoDataValue() const override
    {
        return m_abyNoData.empty() ? nullptr : m_abyNoData.data();
    }

    double GetScale(bool *pbHas, GDALDataType *peType) const override
    {
        return Value(0, pbHas, peType);
    }

    double GetOffset(bool *pbHas, GDALDataType *peType) const override
    {
        return Value(1, pbHas, peType);
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
    std::string m_osUnit{};
    double m_adfScaleOffset[2] = {1, 0};
    bool m_abHas[2] = {false, false};
    std::vector<GByte> m_abyNoData{};

    double Value(int i, bool *pbHas, GDALDataType *peType) const
    {
        if (pbHas)
            *pbHas = m_abHas[i];
        if (peType)
            *peType = GDT_Unknown;
        return m_adfScaleOffset[i];
    }

    RUMIDataArray(const std::string &osParent, std::shared_ptr<RUMIMDShared> poShared)
        : GDALAbstractMDArray(osParent, "data"), GDALMDArray(osParent, "data"), m_poShared(std::move(poShared)),
          m_oType(GDALExtendedDataType::Create(m_poShared->eDataType))
    {
        const rumi_info &sInfo = m_poShared->poFile->sInfo;
        const char *pszEncoding = rumi_gdal_encoding_name(sInfo.encoding);
        const std::string osFull = GetFullName();
        m_apoAttrs.push_back(std::make_shared<GDALAttributeNumeric>(osFull, "frame_unit", static_cast<int>(sInfo.frame_unit)));
        m_apoAttrs.push_back(StringAttr(osFull, "encoding", pszEncoding ? pszEncoding : ""));
        m_aosStructuralInfo.SetNameValue("COMPRESSION", "OPENZL");
        m_aosStructuralInfo.SetNameValue("FRAME_UNIT", CPLSPrintf("%u", sInfo.frame_unit));
        if (m_poShared->poFile->nOutput == RUMI_OUTPUT_FLOAT32)
            m_aosStructuralInfo.SetNameValue("PROMOTED", "FLOAT32");
        if (m_poShared->bWidenInt8)
            m_aosStructuralInfo.SetNameValue("PROMOTED", "INT16");
        const int nTime = m_poShared->nTimes == sInfo.times ? -1 : static_cast<int>(m_poShared->nTimeOffset);
        RUMIForEachItem(rumi_gdal_metadata(m_poShared->poFile->hRumi, RUMI_MD_DATA_PAM, 0, nTime, GetFilename().c_str()),
                        [&](const char *pszKey, const char *pszValue)
                        {
                            const int i = EQUAL(pszKey, "SCALE") ? 0 : (EQUAL(pszKey, "OFFSET") ? 1 : -1);
                            const double dfValue = CPLAtof(pszValue);
                            if (i >= 0)
                                m_abHas[i] = true, m_adfScaleOffset[i] = dfValue;
                            else if (EQUAL(pszKey, "UNIT"))
                                m_osUnit = pszValue;
                            else if (EQUAL(pszKey, "WARNING"))
                                CPLError(CE_Warning, CPLE_AppDefined, "RUMI: %s", pszValue);
                            else if (EQUAL(pszKey, "NODATA"))
                            {
                                m_abyNoData.resize(m_oType.GetSize());
                                GDALExtendedDataType::CopyValue(&dfValue, GDALExtendedDataType::Create(GDT_Float64),
                                                                m_abyNoData.data(), m_oType);
                            }
                        });
    }

    bool ReadImpl(const GUInt64 *arrayStartIdx, const size_t *count, const GInt64 *arrayStep,
                  const GPtrDiff_t *bufferStride, const GDALExtendedDataType &oDstType, GByte *pabyDst) const;
    bool ReadNative(const GUInt64 *arrayStartIdx, const size_t *count, const GInt64 *arrayStep,
                    const GInt64 *anSpacing, GByte *pabyOrigin) const;
};

/* Reads `data` (see the top of this file) with one rumi_read per call. */
bool RUMIDataArray::ReadImpl(const GUInt64 *arrayStartIdx, const size_t *count, const GInt64 *arrayStep,
                             const GPtrDiff_t *bufferStride, const GDALExtendedDataType &oDstType,
                             GByte *pabyDst) const
{
    const RUMIMDShared &oShared = *m_poShared;
    const GDALDataType eFileType = oShared.poFile->eDataType; /* of the samples rumi writes */
    const GInt64 nFileSize = GDALGetDataTypeSizeBytes(eFileType);
    if (oDstType == m_oType && !oShared.bWidenInt8)
    {
        const GInt64 anSpacing[4] = {bufferStride[0] * nFileSize, bufferStride[1] * nFileSize,
                                     bufferStride[2] * nFileSize, bufferStride[3] * nFileSize};
        return ReadNative(arrayStartIdx, count, arrayStep, anSpacing, pabyDst);
    }
    /* another buffer type: read into a C-order buffer of the file's type, then convert */
    const GInt64 anSpacing[4] = {static_cast<GInt64>(count[1] * count[2] * count[3]) * nFileSize,
                                 static_cast<GInt64>(count[2] * count[3]) * nFileSize,
                                 static_cast<GInt64>(count[3]) * nFileSize, nFileSize};
    const size_t nValues = count[0] * count[1] * count[2] * count[3];
    std::vector<GByte> abyTmp(nValues * static_cast<size_t>(nFileSize));
    if (!ReadNative(arrayStartIdx, count, arrayStep, anSpacing, abyTmp.data()))
        return false;
    GDALExtendedDataType oSrcType = GDALExtendedDataType::Create(eFileType);
    if (oShared.bWidenInt8)
    {
        std::vector<GByte> abyWide(nValues * sizeof(GInt16));
        for (size_t i = 0; i < nValues; ++i)
        {
            const GInt16 nValue = static_cast<int8_t>(abyTmp[i]);
            memcpy(abyWide.data() + i * sizeof(GInt16), &nValue, sizeof(nValue));
        }
        abyTmp.swap(abyWide);
        oSrcType = GDALExtendedDataType::Create(GDT_Int16);
    }
    const size_t nSrcSize = oSrcType.GetSize();
    const GPtrDiff_t nDstSize = static_cast<GPtrDiff_t>(oDstType.GetSize());
    for (size_t iRow = 0; iRow < count[0] * count[1] * count[2]; ++iRow) /* (t, b, y) rows, C order */
    {
        const GPtrDiff_t t = iRow / (count[1] * count[2]), b = iRow / count[2] % count[1], y = iRow % count[2];
        const GPtrDiff_t nDst = t * bufferStride[0] + b * bufferStride[1] + y * bufferStride[2];
        if (!GDALExtendedDataType::CopyValues(abyTmp.data() + iRow * count[3] * nSrcSize, oSrcType, 1,
                                              pabyDst + nDst * nDstSize, oDstType, bufferStride[3], count[3]))
            return false;
    }
    return true;
}

/* One rumi_read of the selection in the file's sample type; anSpacing: bytes between
   neighbours along (time, band, y, x) in the buffer. */
bool RUMIDataArray::ReadNative(const GUInt64 *arrayStartIdx, const size_t *count, const GInt64 *arrayStep,
                               const GInt64 *anSpacing, GByte *pabyOrigin) const
{
    const RUMIMDShared &oShared = *m_poShared;
    for (int i = 0; i < 4; ++i)
    {
        if (count[i] == 0)
            return true;
    }
    std::vector<rumi_plane> asPlanes;
    asPlanes.reserve(count[0] * count[1]);
    for (size_t t = 0; t < count[0]; ++t)
        for (size_t b = 0; b < count[1]; ++b)
            asPlanes.push_back(rumi_plane{static_cast<uint32_t>(arrayStartIdx[1] + b * arrayStep[1]),
                                          static_cast<uint32_t>(oShared.nTimeOffset + arrayStartIdx[0] +
                                                                t * arrayStep[0]),
                                          static_cast<int64_t>(t) * anSpacing[0] + static_cast<int64_t>(b) * anSpacing[1]});
    const rumi_axis sRows{static_cast<uint32_t>(arrayStartIdx[2]), static_cast<uint32_t>(count[2]), arrayStep[2],
                          anSpacing[2]};
    const rumi_axis sCols{static_cast<uint32_t>(arrayStartIdx[3]), static_cast<uint32_t>(count[3]), arrayStep[3],
                          anSpacing[3]};
    const auto Where = [&] /* the selection's text, made only for a message */
    {
        std::string osWhere;
        for (int i = 0; i < 4; ++i)
            osWhere += CPLSPrintf("%s%c %" PRIu64 "+%zu*%" PRId64, i > 0 ? ", " : "", "tbyx"[i],
                                  static_cast<uint64_t>(arrayStartIdx[i]), count[i], static_cast<int64_t>(arrayStep[i]));
        return CPLSPrintf("%s", osWhere.c_str());
    };
    if (oShared.poFile->Read(asPlanes.data(), asPlanes.size(), sRows, sCols, pabyOrigin,
                             static_cast<uint32_t>(oShared.poFile->nThreads), "multidim", Where))
        return true;
    RUMIReportError(CPLSPrintf("%s: reading %s", oShared.poFile->osPath.c_str(), Where()));
    return false;
}

/* --- RUMIGroup --- */

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
        if (!MakeDimensions() || !MakeTime() || !MakeBand())
            return nullptr;
        MakeSRS();
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
    bool MakeBand();
    void MakeXY();
    std::shared_ptr<GDALMDArray> ValuesArray(const std::string &osName,
                                             const std::vector<std::shared_ptr<GDALDimension>> &apoDims,
                                             const GDALExtendedDataType &oType, const void *pValues,
                                             const char *pszAttrs);
};

bool GroupBuilder::MakeDimensions()
{
    const RUMIMDShared &oShared = *m_poShared;
    if (rumi_get_georef(oShared.poFile->hRumi, &m_sGeo) != RUMI_OK || rumi_get_geotransform(oShared.poFile->hRumi, 1, m_adfGT) != RUMI_OK)
    {
        RUMIReportError(oShared.poFile->osPath.c_str());
        return false;
    }
    m_bNorthUp = m_sGeo.model != 0 && m_adfGT[2] == 0 && m_adfGT[4] == 0;
    const char *pszY = m_bNorthUp ? (m_adfGT[5] < 0 ? "SOUTH" : "NORTH") : "";
    const char *pszX = m_bNorthUp ? (m_adfGT[1] < 0 ? "WEST" : "EAST") : "";
    m_poTimeDim = std::make_shared<GDALDimensionWeakIndexingVar>(m_osParent, "time", GDAL_DIM_TYPE_TEMPORAL,
                                                                 std::string(), oShared.nTimes);
    m_poBandDim = std::make_shared<GDALDimensionWeakIndexingVar>(m_osParent, "band", std::string(), std::string(),
                                                                 oShared.poFile->sInfo.bands);
    m_poYDim = std::make_shared<GDALDimensionWeakIndexingVar>(m_osParent, "y", GDAL_DIM_TYPE_HORIZONTAL_Y, pszY,
                                                              oShared.poFile->sInfo.length);
    m_poXDim = std::make_shared<GDALDimensionWeakIndexingVar>(m_osParent, "x", GDAL_DIM_TYPE_HORIZONTAL_X, pszX,
                                                              oShared.poFile->sInfo.width);
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

/* time: coordinates (interval starts) and, for intervals, their bounds (rumi_time_values). */
bool GroupBuilder::MakeTime()
{
    const RUMIMDShared &oShared = *m_poShared;
    rumi_dataset *hRumi = oShared.poFile->hRumi;
    const GDALExtendedDataType oInt64 = GDALExtendedDataType::Create(GDT_Int64);
    const char *pszWhere = CPLSPrintf("%s: time coordinates", oShared.poFile->osPath.c_str());
    std::vector<int64_t> anTimes(oShared.nTimes);
    const char *pszAttrs = rumi_gdal_metadata(hRumi, RUMI_MD_CF_TIME, 0, -1, nullptr);
    if (pszAttrs == nullptr ||
        rumi_time_values(hRumi, oShared.nTimeOffset, oShared.nTimes, 0, anTimes.data(), anTimes.size()) != RUMI_OK)
    {
        RUMIReportError(pszWhere);
        return false;
    }
    m_poTime = ValuesArray("time", {m_poTimeDim}, oInt64, anTimes.data(), pszAttrs);
    if (!m_poTime)
        return false;
    m_poTimeDim->SetIndexingVariable(m_poTime);
    const char *pszBounds = rumi_gdal_metadata(hRumi, RUMI_MD_CF_TIME_BOUNDS, 0, -1, nullptr);
    if (pszBounds == nullptr || pszBounds[0] == '\0')
        return true;
    std::vector<int64_t> anBounds(2 * static_cast<size_t>(oShared.nTimes));
    if (rumi_time_values(hRumi, oShared.nTimeOffset, oShared.nTimes, 1, anBounds.data(), anBounds.size()) != RUMI_OK)
    {
        RUMIReportError(pszWhere);
        return false;
    }
    auto poNvDim = std::make_shared<GDALDimension>(m_osParent, "nv", std::string(), std::string(), 2);
    m_poGroup->AddDimension(poNvDim);
    m_poBounds = ValuesArray("time_bounds", {m_poTimeDim, poNvDim}, oInt64, anBounds.data(), pszBounds);
    return m_poBounds != nullptr;
}

/* band: the band texts. */
bool GroupBuilder::MakeBand()
{
    std::vector<std::string> aosTexts;
    size_t nMaxLen = 1; /* a bounded string type: Zarr cannot store strings of unlimited size */
    for (uint32_t b = 0; b < m_poShared->poFile->sInfo.bands; ++b)
    {
        const char *pszText = rumi_band_text(m_poShared->poFile->hRumi, b);
        aosTexts.emplace_back(pszText ? pszText : "");
        nMaxLen = std::max(nMaxLen, aosTexts.back().size());
    }
    std::vector<const char *> apszTexts;
    for (const std::string &osText : aosTexts)
        apszTexts.push_back(osText.c_str());
    m_poBand = ValuesArray("band", {m_poBandDim}, GDALExtendedDataType::CreateString(nMaxLen), apszTexts.data(),
                           "long_name=band description\0");
    if (!m_poBand)
        return false;
    m_poBandDim->SetIndexingVariable(m_poBand);
    return true;
}

/* A small array held in memory (by a MEM dataset the arrays share): time coordinates, their
   bounds, the band texts, with attributes pszAttrs (a rumi_gdal_metadata list; "units" is also the
   array's GetUnit(), as netCDF and Zarr answer). NULL with a CPLError. */
std::shared_ptr<GDALMDArray> GroupBuilder::ValuesArray(const std::string &osName,
                                                       const std::vector<std::shared_ptr<GDALDimension>> &apoDims,
                                                       const GDALExtendedDataType &oType, const void *pValues,
                                                       const char *pszAttrs)
{
    if (!m_poShared->poValues)
    {
        GDALDriver *poMem = GetGDALDriverManager()->GetDriverByName("MEM");
        m_poShared->poValues.reset(poMem ? poMem->CreateMultiDimensional("", nullptr, nullptr) : nullptr);
    }
    auto poGroup = m_poShared->poValues ? m_poShared->poValues->GetRootGroup() : nullptr;
    auto poArray = poGroup ? poGroup->CreateMDArray(osName, apoDims, oType) : nullptr;
    const std::vector<GUInt64> anStart(apoDims.size(), 0);
    std::vector<size_t> anCount;
    for (const auto &poDim : apoDims)
        anCount.push_back(static_cast<size_t>(poDim->GetSize()));
    if (!poArray || !poArray->Write(anStart.data(), anCount.data(), nullptr, nullptr, oType, pValues))
    {
        CPLError(CE_Failure, CPLE_AppDefined, "RUMI: %s: cannot make the in-memory array %s",
                 m_poShared->poFile->osPath.c_str(), osName.c_str());
        return nullptr;
    }
    bool bOK = true;
    RUMIForEachItem(pszAttrs, [&](const char *pszKey, const char *pszValue) {
        auto poAttr = poArray->CreateAttribute(pszKey, {}, GDALExtendedDataType::CreateString());
        bOK = bOK && poAttr && poAttr->Write(pszValue) && (!EQUAL(pszKey, "units") || poArray->SetUnit(pszValue));
    });
    return bOK ? poArray : nullptr;
}

/* y, x: pixel centres, for a north-up grid only (regularly spaced). */
void GroupBuilder::MakeXY()
{
    if (!m_bNorthUp)
        return;
    auto poY = GDALMDArrayRegularlySpaced::Create(m_osParent, "y", m_poYDim, m_adfGT[3], m_adfGT[5], 0.5);
    auto poX = GDALMDArrayRegularlySpaced::Create(m_osParent, "x", m_poXDim, m_adfGT[0], m_adfGT[1], 0.5);
    /* CF attributes (rumi_gdal_metadata), for an SRS PROJ knows */
    const char *pszUnit = nullptr;
    if (m_poSRS)
        m_poSRS->GetLinearUnits(&pszUnit);
    for (const auto &oAxis : {std::make_pair(poY, RUMI_MD_CF_Y), std::make_pair(poX, RUMI_MD_CF_X)})
    {
        RUMIForEachItem(m_poSRS ? rumi_gdal_metadata(m_poShared->poFile->hRumi, oAxis.second, 0, -1, pszUnit) : nullptr,
                        [&](const char *pszKey, const char *pszValue)
                        { oAxis.first->AddAttribute(StringAttr(oAxis.first->GetFullName(), pszKey, pszValue)); });
    }
    m_poY = poY;
    m_poX = poX;
    m_poYDim->SetIndexingVariable(m_poY);
    m_poXDim->SetIndexingVariable(m_poX);
}

}  // namespace

/* --- RUMIMultiDimDataset --- */

RUMIMultiDimDataset::~RUMIMultiDimDataset() = default;

char **RUMIMultiDimDataset::GetFileList()
{
    return m_poShared->poFile->FileList(nullptr);
}

GDALDataset *RUMIMultiDimDataset::Open(std::shared_ptr<RUMIFile> poFile, int nTime)
{
    auto poShared = std::make_shared<RUMIMDShared>();
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
