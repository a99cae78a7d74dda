/*
 * 172.17.0.1, Docker's bridge gateway, is this machine.
 *
 * The original Airflow tasks run Airflow in Docker containers (Astro CLI); their DAGs and
 * connections reach the VM's own PostgreSQL at 172.17.0.1, the address of the VM's docker0
 * bridge: from a container it is the host, and on the VM itself it is one of its own addresses.
 * Here the project's "containers" are this machine's processes (astro_standin), and 172.17.0.1
 * is whatever the container's gateway is. The image preloads this library into every process
 * (/etc/ld.so.preload), so a TCP connection to 172.17.0.1 goes to 127.0.0.1 instead, at the
 * same port, as it would on the VM; every other connection is left as it is.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <dlfcn.h>
#include <errno.h>
#include <netinet/in.h>
#include <stddef.h>
#include <sys/socket.h>

/* 172.17.0.1, Docker's default bridge gateway. */
#define DOCKER_HOST_ADDRESS 0xAC110001u

typedef int (*connect_fn)(int, const struct sockaddr *, socklen_t);

int connect(int fd, const struct sockaddr *addr, socklen_t len)
{
    static connect_fn real_connect;
    if (real_connect == NULL) {
        real_connect = (connect_fn)dlsym(RTLD_NEXT, "connect");
        if (real_connect == NULL) {
            errno = ENOSYS;
            return -1;
        }
    }
    if (addr != NULL && addr->sa_family == AF_INET && len >= (socklen_t)sizeof(struct sockaddr_in)) {
        const struct sockaddr_in *in = (const struct sockaddr_in *)addr;
        if (in->sin_addr.s_addr == htonl(DOCKER_HOST_ADDRESS)) {
            struct sockaddr_in local = *in;
            local.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
            return real_connect(fd, (const struct sockaddr *)&local, (socklen_t)sizeof local);
        }
    }
    return real_connect(fd, addr, len);
}
