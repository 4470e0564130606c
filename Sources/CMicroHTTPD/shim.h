#ifndef TACTILE_MICROHTTPD_SHIM_H
#define TACTILE_MICROHTTPD_SHIM_H

#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <microhttpd.h>

// libmicrohttpd's start, daemon-info and connection-info calls take variable arguments,
// which Swift cannot call; these wrappers pass a fixed set.

/// Where libmicrohttpd's own messages go: a function and its context.
struct tactile_mhd_logger {
    void (*log)(void *context, const char *message);
    void *context;
};

/// Formats one of libmicrohttpd's messages (at most 511 bytes, without its line break) and
/// hands it to the logger in `context`.
static inline void tactile_mhd_log(void *context, const char *format, va_list arguments) {
    const struct tactile_mhd_logger *logger = context;
    char message[512];
    vsnprintf(message, sizeof message, format, arguments);
    size_t length = strlen(message);
    while (length > 0 && (message[length - 1] == '\n' || message[length - 1] == '\r')) {
        message[--length] = 0;
    }
    logger->log(logger->context, message);
}

/// Called when a connection opens and when it closes (before its socket is closed).
typedef void (*tactile_mhd_connection_callback)(
    void *context, struct MHD_Connection *connection, void **socket_context,
    enum MHD_ConnectionNotificationCode code);

/// Called with a request's URI before its arguments are parsed.
typedef void *(*tactile_mhd_uri_callback)(
    void *context, const char *uri, struct MHD_Connection *connection);

/// Starts a daemon on `address` (IPv4 or IPv6; `dual_stack` also takes IPv4 on an IPv6
/// address) with `threads` epoll threads that allow suspending connections, an accept
/// policy, a connection limit, a per-connection idle timeout and memory limit, and a call
/// as each connection opens and closes and as each request's URI arrives; its messages go to `logger`, which must outlive it.
static inline struct MHD_Daemon *tactile_mhd_start(
    const struct sockaddr *address, int is_ipv6, int dual_stack, MHD_AcceptPolicyCallback accept,
    void *accept_context, MHD_AccessHandlerCallback handler, void *handler_context,
    MHD_RequestCompletedCallback completed, void *completed_context,
    tactile_mhd_connection_callback connections, void *connections_context,
    tactile_mhd_uri_callback uris, void *uris_context, unsigned int threads, unsigned int connection_limit,
    unsigned int timeout_seconds, size_t memory_limit, const struct tactile_mhd_logger *logger) {
    unsigned int flags = MHD_USE_EPOLL_INTERNAL_THREAD | MHD_ALLOW_SUSPEND_RESUME | MHD_USE_ERROR_LOG;
    if (is_ipv6) flags |= dual_stack ? MHD_USE_DUAL_STACK : MHD_USE_IPv6;
    // A pool of one is no pool: libmicrohttpd warns about the option then, so it is left
    // out (the array ends early).
    struct MHD_OptionItem pool[] = {
        {threads > 1 ? MHD_OPTION_THREAD_POOL_SIZE : MHD_OPTION_END, threads, NULL},
        {MHD_OPTION_END, 0, NULL},
    };
    return MHD_start_daemon(
        flags, 0, accept, accept_context, handler, handler_context,
        // First, so that every message goes to it.
        MHD_OPTION_EXTERNAL_LOGGER, tactile_mhd_log, (void *)logger,
        MHD_OPTION_SOCK_ADDR, address,
        MHD_OPTION_ARRAY, pool,
        MHD_OPTION_CONNECTION_LIMIT, connection_limit,
        MHD_OPTION_CONNECTION_TIMEOUT, timeout_seconds,
        MHD_OPTION_CONNECTION_MEMORY_LIMIT, memory_limit,
        MHD_OPTION_NOTIFY_COMPLETED, completed, completed_context,
        MHD_OPTION_NOTIFY_CONNECTION, connections, connections_context,
        MHD_OPTION_URI_LOG_CALLBACK, uris, uris_context,
        MHD_OPTION_END);
}

/// The port the daemon listens on (the one chosen when asked for port 0).
static inline uint16_t tactile_mhd_port(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info ? info->port : 0;
}

/// The client's address as text into `buffer`; an empty string when unknown.
static inline void tactile_mhd_client_address(
    struct MHD_Connection *connection, char *buffer, size_t length) {
    buffer[0] = 0;
    const union MHD_ConnectionInfo *info =
        MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    if (!info || !info->client_addr) return;
    const struct sockaddr *address = info->client_addr;
    if (address->sa_family == AF_INET) {
        inet_ntop(AF_INET, &((const struct sockaddr_in *)address)->sin_addr, buffer,
                  (socklen_t)length);
    } else if (address->sa_family == AF_INET6) {
        inet_ntop(AF_INET6, &((const struct sockaddr_in6 *)address)->sin6_addr, buffer,
                  (socklen_t)length);
    }
}

/// A connection's socket; -1 when unknown.
static inline int tactile_mhd_socket(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info =
        MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
    return info ? info->connect_fd : -1;
}

/// The raw bytes of an IPv4 (4) or IPv6 (16) socket address into `buffer` (16 bytes); their
/// count, or 0 for another family.
static inline int tactile_address_bytes(const struct sockaddr *address, uint8_t *buffer) {
    if (!address) return 0;
    if (address->sa_family == AF_INET) {
        memcpy(buffer, &((const struct sockaddr_in *)address)->sin_addr, 4);
        return 4;
    }
    if (address->sa_family == AF_INET6) {
        memcpy(buffer, &((const struct sockaddr_in6 *)address)->sin6_addr, 16);
        return 16;
    }
    return 0;
}

/// The raw bytes of a connection's client address, as `tactile_address_bytes`.
static inline int tactile_mhd_client_bytes(struct MHD_Connection *connection, uint8_t *buffer) {
    const union MHD_ConnectionInfo *info =
        MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    return info ? tactile_address_bytes(info->client_addr, buffer) : 0;
}

#endif
