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

/// Starts a daemon on `address` (IPv4 or IPv6) with `threads` epoll threads that allow
/// suspending connections, a connection limit overall and per client address, a
/// per-connection idle timeout and memory limit; its messages go to `logger`, which must
/// outlive it.
static inline struct MHD_Daemon *tactile_mhd_start(
    const struct sockaddr *address, int is_ipv6, MHD_AccessHandlerCallback handler,
    void *handler_context, MHD_RequestCompletedCallback completed, void *completed_context,
    unsigned int threads, unsigned int connection_limit, unsigned int per_ip_limit,
    unsigned int timeout_seconds, size_t memory_limit, const struct tactile_mhd_logger *logger) {
    unsigned int flags = MHD_USE_EPOLL_INTERNAL_THREAD | MHD_ALLOW_SUSPEND_RESUME | MHD_USE_ERROR_LOG;
    if (is_ipv6) flags |= MHD_USE_IPv6;
    // A pool of one is no pool: libmicrohttpd warns about the option then, so it is left
    // out (the array ends early).
    struct MHD_OptionItem pool[] = {
        {threads > 1 ? MHD_OPTION_THREAD_POOL_SIZE : MHD_OPTION_END, threads, NULL},
        {MHD_OPTION_END, 0, NULL},
    };
    return MHD_start_daemon(
        flags, 0, NULL, NULL, handler, handler_context,
        // First, so that every message goes to it.
        MHD_OPTION_EXTERNAL_LOGGER, tactile_mhd_log, (void *)logger,
        MHD_OPTION_SOCK_ADDR, address,
        MHD_OPTION_ARRAY, pool,
        MHD_OPTION_CONNECTION_LIMIT, connection_limit,
        MHD_OPTION_PER_IP_CONNECTION_LIMIT, per_ip_limit,
        MHD_OPTION_CONNECTION_TIMEOUT, timeout_seconds,
        MHD_OPTION_CONNECTION_MEMORY_LIMIT, memory_limit,
        MHD_OPTION_NOTIFY_COMPLETED, completed, completed_context,
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

#endif
