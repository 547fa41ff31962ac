# CPack: the Debian packages, built by package.sh (./dev package).
#
#   libmysqlx1     libmysqlx.so.1 and its real file. Debian names a runtime
#                  library package after its SONAME (Policy 8.1), so that a
#                  later libmysqlx2 can be installed next to it.
#   libmysqlx-dev  headers, the libmysqlx.so link, libmysqlx.a, the CMake
#                  package and mysqlx.pc. It depends on the exact libmysqlx1
#                  and on the -dev packages the static library links with.
#
#   mysqlx-tools   mysqlx-import and docid-explain (tools/), on libmysqlx1.
#
# Depends of libmysqlx1 come from dpkg-shlibdeps: they name exactly the
# libraries libmysqlx.so.1 has as NEEDED.
set(MYSQLX_PACKAGE_MAINTAINER "mysqlx developers <mysqlx@localhost>" CACHE STRING
    "Maintainer field of the Debian packages")

set(CPACK_PACKAGE_NAME mysqlx)
set(CPACK_PACKAGE_VENDOR mysqlx)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_CONTACT "${MYSQLX_PACKAGE_MAINTAINER}")
# Empty: CPack would put the summary (by default the project description)
# before both descriptions below, which carry their own synopsis lines.
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "")
set(CPACK_GENERATOR DEB)
set(CPACK_SOURCE_GENERATOR "")
# Only these components; install rules of other parts of the tree stay out
# of the packages.
set(CPACK_COMPONENTS_ALL runtime dev tools)
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_COMPONENT_DEV_DEPENDS runtime)
set(CPACK_COMPONENT_TOOLS_DEPENDS runtime)
set(CPACK_DEBIAN_ENABLE_COMPONENT_DEPENDS ON)
# DESTDIR staging keeps CMAKE_INSTALL_PREFIX=/usr during the install, so
# mysqlx.pc (written at install time) says prefix=/usr.
set(CPACK_SET_DESTDIR ON)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)

set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_RELEASE 1)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)

set(CPACK_DEBIAN_RUNTIME_PACKAGE_NAME libmysqlx1)
set(CPACK_DEBIAN_RUNTIME_PACKAGE_SECTION libs)
set(CPACK_DEBIAN_RUNTIME_PACKAGE_SHLIBDEPS ON)
# A shlibs control file (so packages built against us get the right
# Depends), and ldconfig run from postinst/postrm.
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS ON) # only libmysqlx1 has a shared object
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS_POLICY ">=")
set(CPACK_DEBIAN_RUNTIME_DESCRIPTION
    "C++ connector for MySQL's X Protocol and X DevAPI (shared library)
libmysqlx implements the X DevAPI for C++: sessions, document collections
and tables over MySQL's X Protocol, with server-generated document ids.

This package contains the shared library.")

set(CPACK_DEBIAN_DEV_PACKAGE_NAME libmysqlx-dev)
set(CPACK_DEBIAN_DEV_PACKAGE_SECTION libdevel)
list(JOIN MYSQLX_DEV_DEB_DEPENDS ", " CPACK_DEBIAN_DEV_PACKAGE_DEPENDS)
set(CPACK_DEBIAN_DEV_DESCRIPTION
    "C++ connector for MySQL's X Protocol and X DevAPI (development files)
libmysqlx implements the X DevAPI for C++: sessions, document collections
and tables over MySQL's X Protocol, with server-generated document ids.

This package contains the headers, the static library, the CMake package
(find_package(mysqlx)) and the pkg-config file (mysqlx.pc).")

set(CPACK_DEBIAN_TOOLS_PACKAGE_NAME mysqlx-tools)
set(CPACK_DEBIAN_TOOLS_PACKAGE_SECTION database)
# The tools' Depends: libmysqlx1 (= version) from the component dependency,
# the rest (libc6, libstdc++6, ...) from dpkg-shlibdeps. libmysqlx.so.1 is
# not installed on the build machine: dpkg-shlibdeps finds it in the build
# tree, and CPack runs it with --ignore-missing-info for it.
set(CPACK_DEBIAN_TOOLS_PACKAGE_SHLIBDEPS ON)
get_target_property(mysqlx_lib_dir mysqlx BINARY_DIR)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS_PRIVATE_DIRS ${mysqlx_lib_dir})
set(CPACK_DEBIAN_TOOLS_DESCRIPTION
    "C++ connector for MySQL's X Protocol and X DevAPI (command-line tools)
Tools built on libmysqlx:
 mysqlx-import  imports JSON documents (JSON lines or arrays, files or
                standard input, streamed) into a document collection, in
                atomic batches over one or more sessions;
 docid-explain  tells what a document _id is and what it encodes.")

include(CPack)
