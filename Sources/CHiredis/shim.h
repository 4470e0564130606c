#ifndef TACTILE_HIREDIS_SHIM_H
#define TACTILE_HIREDIS_SHIM_H
#include <hiredis/hiredis.h>
#include <sys/time.h>

// The reply types are macros; Swift sees these constants instead.
static const int tactile_redis_reply_string = REDIS_REPLY_STRING;
static const int tactile_redis_reply_array = REDIS_REPLY_ARRAY;
static const int tactile_redis_reply_integer = REDIS_REPLY_INTEGER;
static const int tactile_redis_reply_nil = REDIS_REPLY_NIL;
static const int tactile_redis_reply_status = REDIS_REPLY_STATUS;
static const int tactile_redis_reply_error = REDIS_REPLY_ERROR;
#endif
