# Install-time steps, run through install(CODE) from CMakeLists.txt, where
# CMAKE_INSTALL_PREFIX is the prefix actually used (`--prefix P`, /usr in
# CPack) and DESTDIR the staging root, if any.

# The absolute destination of <path> (relative to the install prefix, or
# absolute) under DESTDIR.
function(mysqlx_install_path path out_var)
  if(NOT IS_ABSOLUTE "${path}")
    set(path "${CMAKE_INSTALL_PREFIX}/${path}")
  endif()
  set(${out_var} "$ENV{DESTDIR}${path}" PARENT_SCOPE)
endfunction()

# mysqlx.pc from its template, with the real prefix.
function(mysqlx_install_pc template pc_dir)
  mysqlx_install_path("${pc_dir}/mysqlx.pc" pc_file)
  file(READ "${template}" pc)
  string(REPLACE "@PREFIX@" "${CMAKE_INSTALL_PREFIX}" pc "${pc}")
  message(STATUS "Installing: ${pc_file}")
  file(WRITE "${pc_file}" "${pc}")
  # Listed in install_manifest.txt like every other installed file.
  list(APPEND CMAKE_INSTALL_MANIFEST_FILES "${pc_file}")
  set(CMAKE_INSTALL_MANIFEST_FILES "${CMAKE_INSTALL_MANIFEST_FILES}" PARENT_SCOPE)
endfunction()

# With --strip (and in CPack): drop the debug info of the static library
# and keep its symbols, as Debian does for static libraries.
function(mysqlx_strip_archive archive strip)
  if(NOT CMAKE_INSTALL_DO_STRIP OR NOT strip)
    return()
  endif()
  mysqlx_install_path("${archive}" file)
  execute_process(COMMAND "${strip}" --strip-debug "${file}" RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "strip --strip-debug failed on ${file}")
  endif()
endfunction()
