# Project code links mysqlx_warnings; generated protobuf code does not.
add_library(mysqlx_warnings INTERFACE)
target_compile_options(mysqlx_warnings INTERFACE -Wall -Wextra -Wpedantic
                       $<$<BOOL:${MYSQLX_WERROR}>:-Werror>)
