# mysqlx_link_closure(<target> <objects-var> <externals-var>)
#
# Walks the link dependencies of <target> (a STATIC library of this project)
# and returns:
#   <objects-var>    $<TARGET_OBJECTS:x> for <target>'s object-library sources
#                    and for every STATIC or OBJECT library of this project it
#                    depends on, directly or not (the cdk areas, mysqlx_proto);
#   <externals-var>  the imported targets it depends on (OpenSSL::SSL, ...).
#
# The installed libmysqlx.a is made from <objects-var>, so it follows whatever
# devapi/ and cdk/ link today (cdk_session, cdk_protocol, ... included once
# the DevAPI links them) without a list kept here.
function(mysqlx_link_closure target objects_var externals_var)
  set(objects "")
  set(externals "")
  set(seen "")
  # An object library listed as sources: $<TARGET_OBJECTS:mysqlx_objects>.
  get_target_property(sources ${target} SOURCES)
  set(queue "")
  foreach(src IN LISTS sources)
    if(src MATCHES "^\\$<TARGET_OBJECTS:([^>]+)>$")
      list(APPEND queue ${CMAKE_MATCH_1})
    else()
      message(FATAL_ERROR "packaging: ${target} compiles ${src} itself; "
                          "bundle its objects in packaging/CMakeLists.txt")
    endif()
  endforeach()
  get_target_property(libs ${target} LINK_LIBRARIES)
  if(libs)
    list(APPEND queue ${libs})
  endif()

  while(queue)
    list(POP_FRONT queue item)
    # A static library's PRIVATE dependencies appear as $<LINK_ONLY:x>.
    if(item MATCHES "^\\$<LINK_ONLY:([^>]+)>$")
      set(item ${CMAKE_MATCH_1})
    endif()
    if(item IN_LIST seen)
      continue()
    endif()
    list(APPEND seen ${item})
    if(item MATCHES "\\$<")
      message(FATAL_ERROR "packaging: cannot follow the generator expression ${item}")
    endif()
    if(NOT TARGET ${item})
      message(FATAL_ERROR "packaging: ${target} links ${item}, which is not a target; "
                          "add it to packaging/CMakeLists.txt (mysqlx.pc and the config)")
    endif()
    get_target_property(imported ${item} IMPORTED)
    if(imported)
      list(APPEND externals ${item})
      continue()
    endif()
    get_target_property(type ${item} TYPE)
    if(type STREQUAL "STATIC_LIBRARY" OR type STREQUAL "OBJECT_LIBRARY")
      list(APPEND objects "$<TARGET_OBJECTS:${item}>")
    elseif(NOT type STREQUAL "INTERFACE_LIBRARY")
      message(FATAL_ERROR "packaging: ${target} depends on the ${type} ${item}")
    endif()
    # Object and interface libraries list their dependencies in
    # LINK_LIBRARIES / INTERFACE_LINK_LIBRARIES; static ones in both (the
    # interface has the private ones as $<LINK_ONLY:>).
    foreach(prop LINK_LIBRARIES INTERFACE_LINK_LIBRARIES)
      if(type STREQUAL "INTERFACE_LIBRARY" AND prop STREQUAL "LINK_LIBRARIES")
        continue()
      endif()
      get_target_property(deps ${item} ${prop})
      if(deps)
        list(APPEND queue ${deps})
      endif()
    endforeach()
  endwhile()
  list(REMOVE_DUPLICATES externals)
  set(${objects_var} ${objects} PARENT_SCOPE)
  set(${externals_var} ${externals} PARENT_SCOPE)
endfunction()
