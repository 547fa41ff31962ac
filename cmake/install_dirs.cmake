# Install directories for every part of the tree (tools/, packaging/), set
# once before any of them includes GNUInstallDirs: the first include fixes
# CMAKE_INSTALL_LIBDIR in the cache.
#
# Debian multiarch (lib/x86_64-linux-gnu) for every prefix, not only /usr as
# GNUInstallDirs does: one build tree then serves `cmake --install --prefix`
# and the .deb, and /usr/local/lib/<triplet> is on Debian's ld.so, pkg-config
# and CMake search paths too. A -DCMAKE_INSTALL_LIBDIR=... still wins.
if(NOT DEFINED CMAKE_INSTALL_LIBDIR AND CMAKE_LIBRARY_ARCHITECTURE
   AND EXISTS /etc/debian_version)
  set(CMAKE_INSTALL_LIBDIR lib/${CMAKE_LIBRARY_ARCHITECTURE}
      CACHE PATH "Object code libraries (LIBDIR)")
endif()
include(GNUInstallDirs)
