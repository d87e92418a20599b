# FindGDAL.cmake for the rumi GDAL plugin.
#
# Finds the installed GDAL the plugin is built against: GDAL's own CMake package
# (GDALConfig.cmake, GDAL >= 3.5) when present, else `gdal-config`. The plugin's C++ is
# compiled by cargo (build.rs), which asks `gdal-config` (or $GDAL_CONFIG) for its flags, so
# GDAL_CONFIG_EXECUTABLE is always looked up as well.
#
# Result variables:
#   GDAL_FOUND, GDAL_VERSION, GDAL_INCLUDE_DIRS, GDAL_LIBRARIES
#   GDAL_CONFIG_EXECUTABLE  path of gdal-config (may be empty when only the CMake package exists)
#   GDAL_LIBRARY_DIR        folder of libgdal (GDAL's own plugin folder is <it>/gdalplugins)
# Imported target: GDAL::GDAL

find_program(GDAL_CONFIG_EXECUTABLE NAMES gdal-config DOC "GDAL's gdal-config script")

find_package(GDAL CONFIG QUIET)

if(GDAL_FOUND AND TARGET GDAL::GDAL)
  get_target_property(GDAL_INCLUDE_DIRS GDAL::GDAL INTERFACE_INCLUDE_DIRECTORIES)
  get_target_property(_rumi_gdal_location GDAL::GDAL LOCATION)
  set(GDAL_LIBRARIES GDAL::GDAL)
elseif(GDAL_CONFIG_EXECUTABLE)
  execute_process(COMMAND "${GDAL_CONFIG_EXECUTABLE}" --version
                  OUTPUT_VARIABLE GDAL_VERSION OUTPUT_STRIP_TRAILING_WHITESPACE)
  execute_process(COMMAND "${GDAL_CONFIG_EXECUTABLE}" --cflags
                  OUTPUT_VARIABLE _rumi_gdal_cflags OUTPUT_STRIP_TRAILING_WHITESPACE)
  execute_process(COMMAND "${GDAL_CONFIG_EXECUTABLE}" --libs
                  OUTPUT_VARIABLE _rumi_gdal_libs OUTPUT_STRIP_TRAILING_WHITESPACE)
  separate_arguments(_rumi_gdal_cflags UNIX_COMMAND "${_rumi_gdal_cflags}")
  separate_arguments(_rumi_gdal_libs UNIX_COMMAND "${_rumi_gdal_libs}")
  set(GDAL_INCLUDE_DIRS "")
  foreach(_flag IN LISTS _rumi_gdal_cflags)
    if(_flag MATCHES "^-I(.+)")
      list(APPEND GDAL_INCLUDE_DIRS "${CMAKE_MATCH_1}")
    endif()
  endforeach()
  set(_rumi_gdal_libdirs "")
  foreach(_flag IN LISTS _rumi_gdal_libs)
    if(_flag MATCHES "^-L(.+)")
      list(APPEND _rumi_gdal_libdirs "${CMAKE_MATCH_1}")
    endif()
  endforeach()
  find_library(GDAL_LIBRARY NAMES gdal HINTS ${_rumi_gdal_libdirs})
  set(GDAL_LIBRARIES "${GDAL_LIBRARY}")
  set(_rumi_gdal_location "${GDAL_LIBRARY}")
  if(GDAL_LIBRARY AND NOT TARGET GDAL::GDAL)
    add_library(GDAL::GDAL UNKNOWN IMPORTED)
    set_target_properties(GDAL::GDAL PROPERTIES IMPORTED_LOCATION "${GDAL_LIBRARY}"
                          INTERFACE_INCLUDE_DIRECTORIES "${GDAL_INCLUDE_DIRS}")
  endif()
endif()

if(_rumi_gdal_location)
  get_filename_component(GDAL_LIBRARY_DIR "${_rumi_gdal_location}" DIRECTORY)
endif()

include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(GDAL
  REQUIRED_VARS GDAL_LIBRARIES GDAL_INCLUDE_DIRS
  VERSION_VAR GDAL_VERSION)
mark_as_advanced(GDAL_CONFIG_EXECUTABLE GDAL_LIBRARY)
