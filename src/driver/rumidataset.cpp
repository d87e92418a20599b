/*
 * rumi GDAL driver: dataset, band and registration. See rumidataset.h.
 *
 * Mapping of the rumi data model (spec: "Data model"):
 *   Image (T = 1)        -> B bands, description = band text
 *   Cube  (T > 1)        -> T*B bands, time-major (GDAL band t*B + b + 1), description
 *                           "<band text> @ <time>", plus one subdataset per time step
 *   RUMI:"<path>":<t>    -> time step t of a file as an Image of B bands
 * Blocks are the file's tiles. Every read is one rumi_read (RUMIFile::Read): the core plans,
 * fetches, decodes (once per frame: its decoded-frame cache serves the other bands of a cell)
 * and copies into GDAL's buffer.
 */
#include "rumidataset.h"
#include "rumimultidim.h"

#include "cpl_string.h"
#include "cpl_vsi.h"

#include <algorithm>
#include <climits>
#include <cstring>
#include <exception>

namespace
{

constexpr const char *DRIVER_NAME = "RUMI";
constexpr const char *PREFIX = "RUMI:";

}  // namespace

void RUMIReportError(const char *pszContext)
{
    const char *pszMsg = rumi_last_error();
    if (pszContext != nullptr && pszContext[0] != '\0')
        CPLError(CE_Failure, CPLE_AppDefined, "RUMI: %s: %s", pszContext, pszMsg);
    else
        CPLError(CE_Failure, CPLE_AppDefined, "RUMI: %s", pszMsg);
}

namespace
{

/* For IReadBlock only: records the last rumi error as GDAL's last error without printing it.
   IReadBlock's one caller, GDALRasterBand::GetLockedBlockRef, reports every failure itself as
   "<file>, band <n>: IReadBlock failed at X offset .., Y offset ..: <last error>", so printing
   the error here too would show the user the same message twice. */
void ReportRumiBlockError(const char *pszContext)
{
    CPLPushErrorHandler(CPLQuietErrorHandler);
    RUMIReportError(pszContext);
    CPLPopErrorHandler();
}

/* Parses "RUMI:<path>" and "RUMI:\"<path>\":<t>" (rumi_gdal_parse_name). Returns false (with a
   CPLError) on bad syntax. nTime is -1 when no time step is given. Unquoted "RUMI:<path>:<t>"
   (how rasterio lists subdatasets, without the quotes): when the whole text is not a file but
   the part before the last ":<digits>" is, it names time step t. */
bool ParseConnectionString(const char *pszName, std::string &osPath, int &nTime)
{
    const char *pszPath = rumi_gdal_parse_name(pszName, 0, &nTime);
    if (pszPath == nullptr)
    {
        CPLError(CE_Failure, CPLE_OpenFailed, "RUMI: %s", rumi_last_error());
        return false;
    }
    osPath = pszPath;
    int nHeadTime = -1;
    const char *pszHead = rumi_gdal_parse_name(pszName, 1, &nHeadTime);
    VSIStatBufL sStat;
    if (pszHead != nullptr && VSIStatL(osPath.c_str(), &sStat) != 0 && VSIStatL(pszHead, &sStat) == 0)
    {
        osPath = pszHead;
        nTime = nHeadTime;
    }
    return true;
}

}  // namespace

/* --- RUMIRasterBand --- */

RUMIRasterBand::RUMIRasterBand(RUMIDataset *poDSIn, int nBandIn, uint32_t nRumiBand, uint32_t nRumiTime)
    : m_nRumiBand(nRumiBand), m_nRumiTime(nRumiTime)
{
    poDS = poDSIn;
    nBand = nBandIn;
    nRasterXSize = poDSIn->GetRasterXSize();
    nRasterYSize = poDSIn->GetRasterYSize();
    nBlockXSize = poDSIn->BlockXSize();
    nBlockYSize = poDSIn->BlockYSize();
    eDataType = poDSIn->m_poFile->eDataType;
}

/* --- RUMIDataset --- */

RUMIFile::~RUMIFile()
{
    rumi_free(hRumi); /* closes the VSI handle */
}

RUMIDataset::~RUMIDataset()
{
    GDALPamDataset::FlushCache(true);
}

/* Blocks are tiles; a tile larger than the image is clipped to the image rounded up to a
   multiple of 16 (one tile across or down then, so block and tile indices stay equal): GDAL's
   block buffers stay small, and GTiff copies (rasterio's rio convert) get valid block sizes. */
static int ClippedBlock(uint32_t nTile, uint32_t nImage)
{
    return static_cast<int>(std::min<uint64_t>(nTile, (static_cast<uint64_t>(nImage) + 15) / 16 * 16));
}

int RUMIDataset::BlockXSize() const
{
    return ClippedBlock(m_sInfo.tile_width, m_sInfo.width);
}

int RUMIDataset::BlockYSize() const
{
    return ClippedBlock(m_sInfo.tile_length, m_sInfo.length);
}

/* --- Reads --- */

/* A block is a tile (clipped to the raster): one plane of one frame, which rumi decodes once
   for all the bands of a cell frame (its decoded-frame cache serves the others). */
CPLErr RUMIRasterBand::IReadBlock(int nBlockXOff, int nBlockYOff, void *pImage)
{
    const auto poGDS = static_cast<RUMIDataset *>(poDS);
    const int nDTSize = GDALGetDataTypeSizeBytes(eDataType);
    const int nX0 = nBlockXOff * nBlockXSize, nY0 = nBlockYOff * nBlockYSize;
    const int nW = std::min(nBlockXSize, nRasterXSize - nX0), nH = std::min(nBlockYSize, nRasterYSize - nY0);
    /* edge tiles are clipped in the file: the rest of the block stays 0 */
    if (nW < nBlockXSize || nH < nBlockYSize)
        memset(pImage, 0, static_cast<size_t>(nBlockXSize) * nBlockYSize * nDTSize);
    const rumi_plane sPlane{m_nRumiBand, m_nRumiTime, 0};
    const rumi_axis sRows{static_cast<uint32_t>(nY0), static_cast<uint32_t>(nH), 1,
                          static_cast<int64_t>(nBlockXSize) * nDTSize};
    const rumi_axis sCols{static_cast<uint32_t>(nX0), static_cast<uint32_t>(nW), 1, nDTSize};
    /* CPLSPrintf: no allocation that could throw into GDAL; formatted only for a message */
    const auto Where = [&] { return CPLSPrintf("band %d, block (%d, %d)", nBand, nBlockXOff, nBlockYOff); };
    if (poGDS->m_poFile->Read(&sPlane, 1, sRows, sCols, pImage, 1, "block", Where))
        return CE_None;
    ReportRumiBlockError(Where());
    return CE_Failure;
}

/* A window of bands panBandMap at GDAL's spacings, in one rumi_read: every frame it needs is
   fetched in one batched range read and decoded on NUM_THREADS threads, straight into pData. */
CPLErr RUMIDataset::ReadWindow(int nXOff, int nYOff, int nXSize, int nYSize, void *pData, int nBandCount,
                               const int *panBandMap, GSpacing nPixelSpace, GSpacing nLineSpace, GSpacing nBandSpace)
{
    try
    {
        std::vector<rumi_plane> asPlanes;
        for (int i = 0; i < nBandCount; ++i)
        {
            const auto poBand = static_cast<RUMIRasterBand *>(GetRasterBand(panBandMap[i]));
            asPlanes.push_back(rumi_plane{poBand->m_nRumiBand, poBand->m_nRumiTime, i * nBandSpace});
        }
        const rumi_axis sRows{static_cast<uint32_t>(nYOff), static_cast<uint32_t>(nYSize), 1, nLineSpace};
        const rumi_axis sCols{static_cast<uint32_t>(nXOff), static_cast<uint32_t>(nXSize), 1, nPixelSpace};
        /* the window's text, made only for a message */
        const auto Where = [&]
        { return CPLSPrintf("window %dx%d at (%d, %d), %d band(s)", nXSize, nYSize, nXOff, nYOff, nBandCount); };
        if (m_poFile->Read(asPlanes.data(), asPlanes.size(), sRows, sCols, pData,
                           static_cast<uint32_t>(m_poFile->nThreads), "window", Where))
            return CE_None;
        RUMIReportError(Where());
    }
    catch (const std::exception &e)
    {
        CPLError(CE_Failure, CPLE_AppDefined, "RUMI: %s", e.what());
    }
    return CE_Failure;
}

/* Reads without resampling into a buffer of the bands' type go to rumi in one request;
   the others take GDAL's way (IReadBlock, overviews, resampling, conversion). */
CPLErr RUMIDataset::IRasterIO(GDALRWFlag eRWFlag, int nXOff, int nYOff, int nXSize, int nYSize, void *pData,
                              int nBufXSize, int nBufYSize, GDALDataType eBufType, int nBandCount,
                              RUMI_BANDMAP_TYPE panBandMap, GSpacing nPixelSpace, GSpacing nLineSpace,
                              GSpacing nBandSpace, GDALRasterIOExtraArg *psExtraArg)
{
    if (eRWFlag == GF_Read && nBufXSize == nXSize && nBufYSize == nYSize && eBufType == m_poFile->eDataType)
        return ReadWindow(nXOff, nYOff, nXSize, nYSize, pData, nBandCount, panBandMap, nPixelSpace, nLineSpace,
                          nBandSpace);
    return GDALPamDataset::IRasterIO(eRWFlag, nXOff, nYOff, nXSize, nYSize, pData, nBufXSize, nBufYSize, eBufType,
                                     nBandCount, panBandMap, nPixelSpace, nLineSpace, nBandSpace, psExtraArg);
}

CPLErr RUMIRasterBand::IRasterIO(GDALRWFlag eRWFlag, int nXOff, int nYOff, int nXSize, int nYSize, void *pData,
                                 int nBufXSize, int nBufYSize, GDALDataType eBufType, GSpacing nPixelSpace,
                                 GSpacing nLineSpace, GDALRasterIOExtraArg *psExtraArg)
{
    if (eRWFlag == GF_Read && nBufXSize == nXSize && nBufYSize == nYSize && eBufType == eDataType)
        return static_cast<RUMIDataset *>(poDS)->ReadWindow(nXOff, nYOff, nXSize, nYSize, pData, 1, &nBand,
                                                            nPixelSpace, nLineSpace, 0);
    return GDALPamRasterBand::IRasterIO(eRWFlag, nXOff, nYOff, nXSize, nYSize, pData, nBufXSize, nBufYSize, eBufType,
                                        nPixelSpace, nLineSpace, psExtraArg);
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
    return m_poFile->FileList(GDALPamDataset::GetFileList());
}

/* papszBase (taken over) and the rumi file and its header blob, when not listed already. */
char **RUMIFile::FileList(char **papszBase) const
{
    CPLStringList aosFiles(papszBase, TRUE);
    for (const std::string &osFile : {osPath, osHeader})
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

bool RUMIFile::SetupDataType(uint32_t nPromote)
{
    const char *pszType = rumi_gdal_data_type(sInfo.encoding, nPromote,
                                              GDAL_VERSION_NUM >= GDAL_COMPUTE_VERSION(3, 7, 0), &nOutput);
    if (pszType == nullptr)
    {
        CPLError(CE_Failure, CPLE_NotSupported, "RUMI: %s: %s", osPath.c_str(), rumi_last_error());
        return false;
    }
    eDataType = GDALGetDataTypeByName(pszType);
    if (eDataType == GDT_Unknown || rumi_gdal_output_sample_bytes(sInfo.encoding, nOutput) !=
                                        static_cast<size_t>(GDALGetDataTypeSizeBytes(eDataType)))
    {
        const char *pszEncoding = rumi_gdal_encoding_name(sInfo.encoding);
        CPLError(CE_Failure, CPLE_NotSupported, "RUMI: %s: %s samples have no GDAL data type in GDAL %s",
                 osPath.c_str(), pszEncoding ? pszEncoding : "?", GDALVersionInfo("RELEASE_NAME"));
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

/* Sets the items of a rumi_gdal_metadata list with SetFileItem; false on failure, reported naming
   pszPath (unless NULL). */
static bool SetFileItems(GDALMajorObject *poObj, const char *pszList, const char *pszPath, const char *pszDomain = "")
{
    if (pszList == nullptr && pszPath != nullptr)
        RUMIReportError(pszPath);
    RUMIForEachItem(pszList, [&](const char *pszKey, const char *pszValue)
                    { SetFileItem(poObj, pszKey, pszValue, pszDomain); });
    return pszList != nullptr;
}

void RUMIDataset::LoadGeoreferencing()
{
    if (m_bGeorefLoaded)
        return;
    m_bGeorefLoaded = true;
    rumi_georef sGeo{};
    if (rumi_get_georef(m_hRumi, &sGeo) != RUMI_OK)
    {
        RUMIReportError(m_poFile->osPath.c_str());
        return;
    }
    SetFileItem(this, GDALMD_AREA_OR_POINT, sGeo.raster_type == 2 ? GDALMD_AOP_POINT : GDALMD_AOP_AREA);
    if (sGeo.model == 0)
        return; /* undefined georeferencing: no CRS, the matrix is ignored (spec) */
    /* PixelIsPoint: the affine maps pixel centres, GDAL's geotransform corners: Rust shifts it
       by half a pixel as the GTiff driver does (and, like it, not when GTIFF_POINT_GEO_IGNORE is
       set). */
    const bool bShift = !CPLTestBool(CPLGetConfigOption("GTIFF_POINT_GEO_IGNORE", "FALSE"));
    if (rumi_get_geotransform(m_hRumi, bShift ? 1 : 0, m_adfGeoTransform) != RUMI_OK)
    {
        RUMIReportError(m_poFile->osPath.c_str());
        return;
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
void RUMIDataset::SetupMetadata()
{
    /* IMAGE_STRUCTURE. The codec is COMPRESSION=OPENZL in the RUMI domain, not here: hosts map
       IMAGE_STRUCTURE/COMPRESSION to their own enum of GDAL's codecs (rasterio's Compression,
       whose profile and .compression raise ValueError for a name they do not know).
       INTERLEAVE tells GDAL how to traverse the bands cheaply (as the JPEG 2000 drivers do):
       with cell frames (units 1 to 8) one frame holds every band of a tile, so all bands are
       best read together (PIXEL): GDAL's whole-raster copies then read all bands per swath
       instead of band by band, which decoded each cell once per band once the raster no
       longer fit in the block cache (3x the work, docs/performance.md). The exact frame
       layout is FRAME_LAYOUT in the RUMI domain. */
    SetMetadataItem("INTERLEAVE", m_sInfo.cell_frames != 0 ? "PIXEL" : "BAND", "IMAGE_STRUCTURE");

    /* RUMI domain (TIME_TYPE and TIME_SCALE come from the trailer: LoadTrailer) */
    SetFileItems(this, rumi_gdal_metadata(m_hRumi, RUMI_MD_FILE, 0, -1, nullptr), m_poFile->osPath.c_str(), "RUMI");
    if (!m_poFile->osHeader.empty())
        SetMetadataItem("HEADER", m_poFile->osHeader.c_str(), "RUMI");
    if (m_poFile->nOutput == RUMI_OUTPUT_FLOAT32)
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

/* Band texts, time labels and the subdataset list: from the trailer (rumi_gdal_metadata). */
void RUMIDataset::LoadTrailer()
{
    if (m_bTrailerLoaded)
        return;
    m_bTrailerLoaded = true;
    const char *pszPath = m_poFile->osPath.c_str();
    if (!SetFileItems(this, rumi_gdal_metadata(m_hRumi, RUMI_MD_TIME_AXIS, 0, -1, nullptr), pszPath, "RUMI"))
        return;
    const bool bCube = m_sInfo.times > 1 && m_nTimeIndex < 0;
    SetFileItems(this, rumi_gdal_metadata(m_hRumi, RUMI_MD_DATASET, 0, bCube ? -1 : std::max(m_nTimeIndex, 0), nullptr),
                 pszPath);
    if (bCube && GDALMajorObject::GetMetadata("SUBDATASETS") == nullptr) /* 2T items: no lookup per item */
    {
        CPLStringList aosList;
        RUMIForEachItem(rumi_gdal_metadata(m_hRumi, RUMI_MD_SUBDATASETS, 0, -1, pszPath),
                        [&](const char *pszKey, const char *pszValue) { aosList.AddNameValue(pszKey, pszValue); });
        GDALMajorObject::SetMetadata(aosList.List(), "SUBDATASETS");
    }
    /* band texts, descriptions and (for a Cube) each band's time step */
    for (int iBand = 1; iBand <= nBands; ++iBand)
    {
        auto poBand = static_cast<RUMIRasterBand *>(GetRasterBand(iBand));
        const int64_t nT = bCube ? static_cast<int64_t>(poBand->m_nRumiTime) : -1;
        SetFileItems(poBand, rumi_gdal_metadata(m_hRumi, RUMI_MD_BAND, poBand->m_nRumiBand, nT, nullptr), nullptr);
        const char *pszDescription = rumi_gdal_metadata(m_hRumi, RUMI_MD_DESCRIPTION, poBand->m_nRumiBand, nT, nullptr);
        if (pszDescription != nullptr && poBand->GDALMajorObject::GetDescription()[0] == '\0')
            poBand->GDALMajorObject::SetDescription(pszDescription);
    }
}

/* What a metadata query needs read first (rumi_gdal_parts: RUMI_PART_GEOREF, _TRAILER). */
void RUMIDataset::LoadParts(uint32_t nParts)
{
    if (nParts & RUMI_PART_GEOREF)
        LoadGeoreferencing();
    if (nParts & RUMI_PART_TRAILER)
        LoadTrailer();
}

char **RUMIDataset::GetMetadata(const char *pszDomain)
{
    LoadParts(rumi_gdal_parts(0, nullptr, pszDomain));
    return GDALPamDataset::GetMetadata(pszDomain);
}

const char *RUMIDataset::GetMetadataItem(const char *pszName, const char *pszDomain)
{
    LoadParts(rumi_gdal_parts(0, pszName != nullptr ? pszName : "", pszDomain));
    return GDALPamDataset::GetMetadataItem(pszName, pszDomain);
}

char **RUMIDataset::GetMetadataDomainList()
{
    LoadParts(RUMI_PART_GEOREF | RUMI_PART_TRAILER);
    return GDALPamDataset::GetMetadataDomainList();
}

const char *RUMIRasterBand::GetDescription() const
{
    static_cast<RUMIDataset *>(poDS)->LoadTrailer();
    return GDALPamRasterBand::GetDescription();
}

char **RUMIRasterBand::GetMetadata(const char *pszDomain)
{
    static_cast<RUMIDataset *>(poDS)->LoadParts(rumi_gdal_parts(1, nullptr, pszDomain));
    return GDALPamRasterBand::GetMetadata(pszDomain);
}

const char *RUMIRasterBand::GetMetadataItem(const char *pszName, const char *pszDomain)
{
    static_cast<RUMIDataset *>(poDS)->LoadParts(rumi_gdal_parts(1, pszName != nullptr ? pszName : "", pszDomain));
    return GDALPamRasterBand::GetMetadataItem(pszName, pszDomain);
}

char **RUMIRasterBand::GetMetadataDomainList()
{
    static_cast<RUMIDataset *>(poDS)->LoadTrailer();
    return GDALPamRasterBand::GetMetadataDomainList();
}

/* The files beside osPath, as GDALOpenInfo::GetSiblingFiles lists them for a plain file name
   (GDAL gives a RUMI:"..." name none): with GDAL_DISABLE_READDIR_ON_OPEN=EMPTY_DIR only the
   file itself, so that neither the sidecar blob nor .aux.xml/.ovr is probed (over /vsicurl/,
   a HEAD each); with TRUE, and for a local file, none (NULL: probe each: a stat costs less
   than listing a folder of many files at every open); otherwise the directory's listing. */
static char **SiblingFiles(const std::string &osPath)
{
    const char *pszOption = CPLGetConfigOption("GDAL_DISABLE_READDIR_ON_OPEN", "NO");
    if (EQUAL(pszOption, "EMPTY_DIR"))
        return CSLAddString(nullptr, CPLGetFilename(osPath.c_str()));
    if (CPLTestBool(pszOption) || VSIIsLocal(osPath.c_str()))
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

namespace
{

/* What the dataset name and the open options ask for. */
struct OpenRequest
{
    std::string osPath{};
    int nTime = -1;
    bool bPrefixed = false;
    rumi_gdal_options sOptions{}; /* PROMOTE, limits, threads, cache size */
};

bool ParseOpenOptions(GDALOpenInfo *poOpenInfo, OpenRequest &oReq)
{
    oReq.osPath = poOpenInfo->pszFilename;
    oReq.bPrefixed = STARTS_WITH_CI(poOpenInfo->pszFilename, PREFIX);
    if (oReq.bPrefixed && !ParseConnectionString(poOpenInfo->pszFilename, oReq.osPath, oReq.nTime))
        return false;
    if (poOpenInfo->eAccess == GA_Update)
    {
        CPLError(CE_Failure, CPLE_NotSupported,
                 "RUMI: the driver is read-only: open '%s' without update access (rumi files are written "
                 "by the rumi writer)",
                 poOpenInfo->pszFilename);
        return false;
    }
    /* configuration options (RUMI_*, GDAL_NUM_THREADS), else open options */
    const auto Lookup = [](void *pCtx, const char *pszKey) noexcept -> const char *
    {
        return STARTS_WITH(pszKey, "RUMI_") || STARTS_WITH(pszKey, "GDAL_")
                   ? CPLGetConfigOption(pszKey, nullptr)
                   : CSLFetchNameValue(static_cast<char **>(pCtx), pszKey);
    };
    if (rumi_gdal_open_options(Lookup, poOpenInfo->papszOpenOptions, static_cast<uint64_t>(GDALGetCacheMax64()),
                               &oReq.sOptions) != RUMI_OK)
    {
        CPLError(CE_Failure, CPLE_IllegalArg, "RUMI: %s", rumi_last_error());
        return false;
    }
    if (oReq.sOptions.warning != nullptr)
        CPLError(CE_Warning, CPLE_IllegalArg, "RUMI: %s", oReq.sOptions.warning);
    return true;
}

/* The file through VSI: GDAL's handle when it opened the file itself, with the first 16 KiB
   (/vsicurl/ fetched them in one chunk to identify the file, so reading them again costs no
   request; Rust serves reads inside them from memory). NULL with a CPLError. */
VSILFILE *OpenFile(GDALOpenInfo *poOpenInfo, const OpenRequest &oReq, std::vector<GByte> &abyPrefix)
{
    constexpr int PREFIX_BYTES = 16384;
    if (!oReq.bPrefixed && poOpenInfo->fpL != nullptr)
    {
        poOpenInfo->TryToIngest(PREFIX_BYTES);
        if (poOpenInfo->pabyHeader != nullptr && poOpenInfo->nHeaderBytes > 0)
            abyPrefix.assign(poOpenInfo->pabyHeader,
                             poOpenInfo->pabyHeader + std::min(poOpenInfo->nHeaderBytes, PREFIX_BYTES));
        VSILFILE *fp = poOpenInfo->fpL;
        poOpenInfo->fpL = nullptr;
        return fp;
    }
    VSILFILE *fp = VSIFOpenL(oReq.osPath.c_str(), "rb");
    if (fp == nullptr)
        CPLError(CE_Failure, CPLE_OpenFailed, "RUMI: cannot open '%s'%s", oReq.osPath.c_str(),
                 oReq.bPrefixed && oReq.osPath.find(':') != std::string::npos && oReq.nTime < 0
                     ? " (a time step is selected with RUMI:\"<path>\":<time index>)"
                     : "");
    return fp;
}

}  // namespace

std::shared_ptr<RUMIFile> RUMIFile::Open(GDALOpenInfo *poOpenInfo, int &nTime, CPLStringList &aosSiblings)
{
    OpenRequest oReq;
    if (!ParseOpenOptions(poOpenInfo, oReq))
        return nullptr;
    nTime = oReq.nTime;
    std::vector<GByte> abyPrefix;
    VSILFILE *fp = OpenFile(poOpenInfo, oReq, abyPrefix);
    if (fp == nullptr)
        return nullptr;
    auto poFile = std::make_shared<RUMIFile>();
    poFile->osPath = oReq.osPath;
    poFile->nThreads = oReq.sOptions.threads;

    aosSiblings.Assign(oReq.bPrefixed || VSIIsLocal(oReq.osPath.c_str()) ? SiblingFiles(oReq.osPath)
                                                                     : CSLDuplicate(poOpenInfo->GetSiblingFiles()),
                       TRUE);
    /* the header blob policy (HEADER=, else a sidecar, ignored with a warning when it does
       not match) and the reads through fp, which Rust takes over, are rumi_gdal_open's */
    const char *pszWarning = nullptr, *pszHeader = nullptr;
    const int nErr = rumi_gdal_open(fp, oReq.osPath.c_str(), abyPrefix.data(), abyPrefix.size(),
                                    CSLFetchNameValue(poOpenInfo->papszOpenOptions, "HEADER"), aosSiblings.List(),
                                    &oReq.sOptions, &poFile->hRumi, &pszWarning, &pszHeader);
    if (pszWarning != nullptr)
        CPLError(CE_Warning, CPLE_AppDefined, "RUMI: %s", pszWarning);
    if (nErr != RUMI_OK)
    {
        CPLError(CE_Failure, nErr == RUMI_ERR_IO ? CPLE_OpenFailed : CPLE_AppDefined, "RUMI: %s", rumi_last_error());
        return nullptr;
    }
    if (rumi_get_info(poFile->hRumi, &poFile->sInfo) != RUMI_OK)
    {
        RUMIReportError(oReq.osPath.c_str());
        return nullptr;
    }
    poFile->osHeader = pszHeader != nullptr ? pszHeader : "";
    rumi_set_cache_bytes(poFile->hRumi, oReq.sOptions.cache_bytes);
    const rumi_info &sInfo = poFile->sInfo;
    if (nTime >= 0 && static_cast<uint32_t>(nTime) >= sInfo.times)
    {
        CPLError(CE_Failure, CPLE_IllegalArg, "RUMI: time index %d is out of range: '%s' has %u time step(s) (0..%u)",
                 nTime, oReq.osPath.c_str(), sInfo.times, sInfo.times - 1);
        return nullptr;
    }
    if (!poFile->SetupDataType(oReq.sOptions.output))
        return nullptr;
    return poFile;
}

/* The GDAL bands: B of time step nTime, or T*B (time-major) of the whole file. */
bool RUMIDataset::SetupBands(int nTime)
{
    const rumi_info &sInfo = m_sInfo;
    const char *pszPath = m_poFile->osPath.c_str();
    if (sInfo.width > static_cast<uint32_t>(INT_MAX) || sInfo.length > static_cast<uint32_t>(INT_MAX))
    {
        CPLError(CE_Failure, CPLE_NotSupported, "RUMI: %s: %ux%u pixels exceed GDAL's raster size limit", pszPath,
                 sInfo.width, sInfo.length);
        return false;
    }
    const bool bCube = sInfo.times > 1 && nTime < 0;
    const uint64_t nBandCount = bCube ? static_cast<uint64_t>(sInfo.times) * sInfo.bands : sInfo.bands;
    if (nBandCount > static_cast<uint64_t>(INT_MAX) || !GDALCheckBandCount(static_cast<int>(nBandCount), FALSE))
    {
        CPLError(CE_Failure, CPLE_NotSupported,
                 "RUMI: %s: %u time steps x %u bands are too many GDAL bands; open one time step with "
                 "RUMI:\"%s\":<time index>",
                 pszPath, sInfo.times, sInfo.bands, pszPath);
        return false;
    }
    nRasterXSize = static_cast<int>(sInfo.width);
    nRasterYSize = static_cast<int>(sInfo.length);
    m_nTimeIndex = nTime;
    for (uint64_t i = 0; i < nBandCount; ++i)
    {
        const uint32_t nB = static_cast<uint32_t>(i % sInfo.bands);
        const uint32_t nT = bCube ? static_cast<uint32_t>(i / sInfo.bands) : (nTime < 0 ? 0 : nTime);
        const int iBand = static_cast<int>(i) + 1;
        SetBand(iBand, new RUMIRasterBand(this, iBand, nB, nT));
    }
    return true;
}

/* PAM (.aux.xml) and external overviews (.ovr; <path>.t<t>.ovr for a time step). */
void RUMIDataset::SetupPam(GDALOpenInfo *poOpenInfo, char **papszSiblings)
{
    SetDescription(poOpenInfo->pszFilename);
    std::string osOverviewBase = m_poFile->osPath;
    if (m_nTimeIndex >= 0)
    {
        SetPhysicalFilename(m_poFile->osPath.c_str());
        SetSubdatasetName(CPLSPrintf("%d", m_nTimeIndex));
        osOverviewBase += CPLSPrintf(".t%d", m_nTimeIndex);
    }
    TryLoadXML(papszSiblings);
    oOvManager.Initialize(this, osOverviewBase.c_str(), papszSiblings);
    /* what Open set is the file's, not a change to save in .aux.xml */
    SetPamFlags(GetPamFlags() & ~GPF_DIRTY);
}

GDALDataset *RUMIDataset::OpenImpl(GDALOpenInfo *poOpenInfo)
{
    if (!Identify(poOpenInfo))
        return nullptr;
    int nTime = -1;
    CPLStringList aosSiblings;
    std::shared_ptr<RUMIFile> poFile = RUMIFile::Open(poOpenInfo, nTime, aosSiblings);
    if (!poFile)
        return nullptr;
    if ((poOpenInfo->nOpenFlags & GDAL_OF_MULTIDIM_RASTER) != 0)
        return RUMIMultiDimDataset::Open(std::move(poFile), nTime); /* rumimultidim.cpp */

    auto poDS = std::make_unique<RUMIDataset>();
    poDS->m_poFile = std::move(poFile);
    poDS->m_hRumi = poDS->m_poFile->hRumi;
    poDS->m_sInfo = poDS->m_poFile->sInfo;
    if (!poDS->SetupBands(nTime))
        return nullptr;
    poDS->SetupMetadata();
    poDS->SetupPam(poOpenInfo, aosSiblings.List());
    return poDS.release();
}

/* --- rumi_gdal_register_driver() --- */

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
        SetFileItems(poDriver.get(), rumi_gdal_driver_items(), nullptr);
        poDriver->pfnIdentify = RUMIDataset::Identify;
        poDriver->pfnOpen = RUMIDataset::Open;
        GetGDALDriverManager()->RegisterDriver(poDriver.release());
    }
    catch (...)
    {
        /* registration failed (out of memory): GDAL simply does not get the driver */
    }
}
