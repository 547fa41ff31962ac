#include "cdk/protocol/msg_types.h"

#include "mysqlx.pb.h"

namespace cdk::protocol {

#define CDK_CHECK_MSG(ours, theirs)                                                                \
  static_assert(static_cast<int>(ours) == static_cast<int>(theirs), #ours " != " #theirs)
CDK_CHECK_MSG(client_msg::con_capabilities_get, Mysqlx::ClientMessages::CON_CAPABILITIES_GET);
CDK_CHECK_MSG(client_msg::con_capabilities_set, Mysqlx::ClientMessages::CON_CAPABILITIES_SET);
CDK_CHECK_MSG(client_msg::con_close, Mysqlx::ClientMessages::CON_CLOSE);
CDK_CHECK_MSG(client_msg::sess_authenticate_start, Mysqlx::ClientMessages::SESS_AUTHENTICATE_START);
CDK_CHECK_MSG(client_msg::sess_authenticate_continue,
              Mysqlx::ClientMessages::SESS_AUTHENTICATE_CONTINUE);
CDK_CHECK_MSG(client_msg::sess_reset, Mysqlx::ClientMessages::SESS_RESET);
CDK_CHECK_MSG(client_msg::sess_close, Mysqlx::ClientMessages::SESS_CLOSE);
CDK_CHECK_MSG(client_msg::sql_stmt_execute, Mysqlx::ClientMessages::SQL_STMT_EXECUTE);
CDK_CHECK_MSG(client_msg::crud_find, Mysqlx::ClientMessages::CRUD_FIND);
CDK_CHECK_MSG(client_msg::crud_insert, Mysqlx::ClientMessages::CRUD_INSERT);
CDK_CHECK_MSG(client_msg::crud_update, Mysqlx::ClientMessages::CRUD_UPDATE);
CDK_CHECK_MSG(client_msg::crud_delete, Mysqlx::ClientMessages::CRUD_DELETE);
CDK_CHECK_MSG(client_msg::expect_open, Mysqlx::ClientMessages::EXPECT_OPEN);
CDK_CHECK_MSG(client_msg::expect_close, Mysqlx::ClientMessages::EXPECT_CLOSE);
CDK_CHECK_MSG(client_msg::crud_create_view, Mysqlx::ClientMessages::CRUD_CREATE_VIEW);
CDK_CHECK_MSG(client_msg::crud_modify_view, Mysqlx::ClientMessages::CRUD_MODIFY_VIEW);
CDK_CHECK_MSG(client_msg::crud_drop_view, Mysqlx::ClientMessages::CRUD_DROP_VIEW);
CDK_CHECK_MSG(client_msg::prepare_prepare, Mysqlx::ClientMessages::PREPARE_PREPARE);
CDK_CHECK_MSG(client_msg::prepare_execute, Mysqlx::ClientMessages::PREPARE_EXECUTE);
CDK_CHECK_MSG(client_msg::prepare_deallocate, Mysqlx::ClientMessages::PREPARE_DEALLOCATE);
CDK_CHECK_MSG(client_msg::cursor_open, Mysqlx::ClientMessages::CURSOR_OPEN);
CDK_CHECK_MSG(client_msg::cursor_close, Mysqlx::ClientMessages::CURSOR_CLOSE);
CDK_CHECK_MSG(client_msg::cursor_fetch, Mysqlx::ClientMessages::CURSOR_FETCH);
CDK_CHECK_MSG(client_msg::compression, Mysqlx::ClientMessages::COMPRESSION);
CDK_CHECK_MSG(server_msg::ok, Mysqlx::ServerMessages::OK);
CDK_CHECK_MSG(server_msg::error, Mysqlx::ServerMessages::ERROR);
CDK_CHECK_MSG(server_msg::conn_capabilities, Mysqlx::ServerMessages::CONN_CAPABILITIES);
CDK_CHECK_MSG(server_msg::sess_authenticate_continue,
              Mysqlx::ServerMessages::SESS_AUTHENTICATE_CONTINUE);
CDK_CHECK_MSG(server_msg::sess_authenticate_ok, Mysqlx::ServerMessages::SESS_AUTHENTICATE_OK);
CDK_CHECK_MSG(server_msg::notice, Mysqlx::ServerMessages::NOTICE);
CDK_CHECK_MSG(server_msg::resultset_column_meta_data,
              Mysqlx::ServerMessages::RESULTSET_COLUMN_META_DATA);
CDK_CHECK_MSG(server_msg::resultset_row, Mysqlx::ServerMessages::RESULTSET_ROW);
CDK_CHECK_MSG(server_msg::resultset_fetch_done, Mysqlx::ServerMessages::RESULTSET_FETCH_DONE);
CDK_CHECK_MSG(server_msg::resultset_fetch_suspended,
              Mysqlx::ServerMessages::RESULTSET_FETCH_SUSPENDED);
CDK_CHECK_MSG(server_msg::resultset_fetch_done_more_resultsets,
              Mysqlx::ServerMessages::RESULTSET_FETCH_DONE_MORE_RESULTSETS);
CDK_CHECK_MSG(server_msg::sql_stmt_execute_ok, Mysqlx::ServerMessages::SQL_STMT_EXECUTE_OK);
CDK_CHECK_MSG(server_msg::resultset_fetch_done_more_out_params,
              Mysqlx::ServerMessages::RESULTSET_FETCH_DONE_MORE_OUT_PARAMS);
CDK_CHECK_MSG(server_msg::compression, Mysqlx::ServerMessages::COMPRESSION);
#undef CDK_CHECK_MSG

const char* server_msg_name(std::uint8_t type) noexcept {
  switch (static_cast<server_msg>(type)) {
  case server_msg::ok:
    return "Mysqlx.Ok";
  case server_msg::error:
    return "Mysqlx.Error";
  case server_msg::conn_capabilities:
    return "Mysqlx.Connection.Capabilities";
  case server_msg::sess_authenticate_continue:
    return "Mysqlx.Session.AuthenticateContinue";
  case server_msg::sess_authenticate_ok:
    return "Mysqlx.Session.AuthenticateOk";
  case server_msg::notice:
    return "Mysqlx.Notice.Frame";
  case server_msg::resultset_column_meta_data:
    return "Mysqlx.Resultset.ColumnMetaData";
  case server_msg::resultset_row:
    return "Mysqlx.Resultset.Row";
  case server_msg::resultset_fetch_done:
    return "Mysqlx.Resultset.FetchDone";
  case server_msg::resultset_fetch_suspended:
    return "Mysqlx.Resultset.FetchSuspended";
  case server_msg::resultset_fetch_done_more_resultsets:
    return "Mysqlx.Resultset.FetchDoneMoreResultsets";
  case server_msg::sql_stmt_execute_ok:
    return "Mysqlx.Sql.StmtExecuteOk";
  case server_msg::resultset_fetch_done_more_out_params:
    return "Mysqlx.Resultset.FetchDoneMoreOutParams";
  case server_msg::compression:
    return "Mysqlx.Connection.Compression";
  }
  return "unknown";
}

const char* client_msg_name(std::uint8_t type) noexcept {
  switch (static_cast<client_msg>(type)) {
  case client_msg::con_capabilities_get:
    return "Mysqlx.Connection.CapabilitiesGet";
  case client_msg::con_capabilities_set:
    return "Mysqlx.Connection.CapabilitiesSet";
  case client_msg::con_close:
    return "Mysqlx.Connection.Close";
  case client_msg::sess_authenticate_start:
    return "Mysqlx.Session.AuthenticateStart";
  case client_msg::sess_authenticate_continue:
    return "Mysqlx.Session.AuthenticateContinue";
  case client_msg::sess_reset:
    return "Mysqlx.Session.Reset";
  case client_msg::sess_close:
    return "Mysqlx.Session.Close";
  case client_msg::sql_stmt_execute:
    return "Mysqlx.Sql.StmtExecute";
  case client_msg::crud_find:
    return "Mysqlx.Crud.Find";
  case client_msg::crud_insert:
    return "Mysqlx.Crud.Insert";
  case client_msg::crud_update:
    return "Mysqlx.Crud.Update";
  case client_msg::crud_delete:
    return "Mysqlx.Crud.Delete";
  case client_msg::expect_open:
    return "Mysqlx.Expect.Open";
  case client_msg::expect_close:
    return "Mysqlx.Expect.Close";
  case client_msg::crud_create_view:
    return "Mysqlx.Crud.CreateView";
  case client_msg::crud_modify_view:
    return "Mysqlx.Crud.ModifyView";
  case client_msg::crud_drop_view:
    return "Mysqlx.Crud.DropView";
  case client_msg::prepare_prepare:
    return "Mysqlx.Prepare.Prepare";
  case client_msg::prepare_execute:
    return "Mysqlx.Prepare.Execute";
  case client_msg::prepare_deallocate:
    return "Mysqlx.Prepare.Deallocate";
  case client_msg::cursor_open:
    return "Mysqlx.Cursor.Open";
  case client_msg::cursor_close:
    return "Mysqlx.Cursor.Close";
  case client_msg::cursor_fetch:
    return "Mysqlx.Cursor.Fetch";
  case client_msg::compression:
    return "Mysqlx.Connection.Compression";
  }
  return "unknown";
}

} // namespace cdk::protocol
