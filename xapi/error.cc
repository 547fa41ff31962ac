// Errors, mysqlx_error*() and mysqlx_free().
#include "xapi/handles.h"

#include <new>

using mysqlx::xapi::handle_base;

void mysqlx_error_struct::set(unsigned num, const char* msg) noexcept {
  clear();
  m_num = num;
  try {
    m_text = msg;
  } catch (...) {
    m_fixed = "Out of memory while reporting an error";
  }
}

void mysqlx_error_struct::set_from_current_exception() noexcept {
  try {
    throw;
  } catch (const std::bad_alloc&) {
    // No allocation here: the message is a literal.
    clear();
    m_num = MYSQLX_ERR_UNKNOWN;
    m_fixed = "Out of memory";
  } catch (const mysqlx::xapi::c_error& e) {
    set(e.num, e.what());
  } catch (const mysqlx::Error& e) {
    // A client error without a number of its own still reads as an error
    // through mysqlx_error_num().
    set(e.code() != 0 ? e.code() : MYSQLX_ERR_UNKNOWN, e.what());
  } catch (const std::exception& e) {
    set(MYSQLX_ERR_UNKNOWN, e.what());
  } catch (...) {
    clear();
    m_num = MYSQLX_ERR_UNKNOWN;
    m_fixed = "Unknown error";
  }
}

extern "C" {

MYSQLX_C_API mysqlx_error_t* mysqlx_error(void* obj) {
  if (obj == nullptr) return nullptr;
  return static_cast<handle_base*>(obj)->last_error();
}

MYSQLX_C_API const char* mysqlx_error_message(void* obj) {
  const mysqlx_error_t* e = mysqlx_error(obj);
  return e ? e->message() : nullptr;
}

MYSQLX_C_API unsigned int mysqlx_error_num(void* obj) {
  const mysqlx_error_t* e = mysqlx_error(obj);
  return e ? e->num() : 0;
}

MYSQLX_C_API void mysqlx_free(void* obj) {
  if (obj != nullptr) static_cast<handle_base*>(obj)->free_by_user();
}

} // extern "C"
