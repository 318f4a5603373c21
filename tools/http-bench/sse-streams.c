/* The stream side of live.py (issue 14), in C so that reading the streams costs the machine
 * little beside the server it measures: Python's asyncio spent more CPU reading 200 streams than
 * the server spent writing them (docs/benchmarks.md, issue 14).
 *
 *     sse-streams HOST PORT < "token house" lines
 *
 * Opens one `GET /v1/live?topics=house:<house>` stream per line, prints "ready" once every one
 * answered 200, then reads them all (epoll) and notes when each `id: N` line arrived
 * (CLOCK_MONOTONIC, as Python's time.monotonic). On "stop" from stdin it prints one
 * "<stream> <id> <seconds>" line per event, then "end", and exits. Exit status 1 when a stream
 * cannot be opened or is refused. Built by run.sh with cc -O2.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

enum { STREAMS_MAX = 4096, LINE_BYTES_MAX = 1024, CARRY_BYTES = 64, READ_BYTES = 65536 };

struct arrival { int stream; unsigned long long id; double seconds; };

static struct arrival *arrivals;
static size_t arrival_count, arrival_capacity;

static double now_seconds(void) {
    struct timespec time;
    clock_gettime(CLOCK_MONOTONIC, &time);
    return (double)time.tv_sec + (double)time.tv_nsec / 1e9;
}

static void fail(const char *what) {
    fprintf(stderr, "sse-streams: %s: %s\n", what, strerror(errno));
    exit(1);
}

static void note(int stream, unsigned long long id, double seconds) {
    if (arrival_count == arrival_capacity) {
        arrival_capacity = arrival_capacity ? 2 * arrival_capacity : 65536;
        arrivals = realloc(arrivals, arrival_capacity * sizeof *arrivals);
        if (!arrivals) fail("realloc");
    }
    arrivals[arrival_count++] = (struct arrival){ stream, id, seconds };
}

/* Notes every "\nid: <digits>\n" in `text`; the caller keeps the last bytes of each read in
 * front of the next, so a line cut between two reads is still found (once: the carried bytes
 * cannot hold a whole line and its successor's start). Chunked framing never looks like it. */
static void scan(int stream, const char *text, size_t length, size_t carried, double seconds) {
    for (size_t at = 0; at + 5 <= length; at++) {
        if (text[at] != '\n' || memcmp(text + at + 1, "id: ", 4) != 0) continue;
        size_t digit = at + 5, end = digit;
        while (end < length && text[end] >= '0' && text[end] <= '9') end++;
        if (end == digit || end >= length || text[end] != '\n') continue;
        if (end < carried) continue; /* seen in the previous read */
        note(stream, strtoull(text + digit, NULL, 10), seconds);
    }
}

static int open_stream(const char *host, int port, const char *token, const char *house) {
    int descriptor = socket(AF_INET, SOCK_STREAM, 0);
    if (descriptor < 0) fail("socket");
    struct sockaddr_in address = { .sin_family = AF_INET, .sin_port = htons((unsigned short)port) };
    if (inet_pton(AF_INET, host, &address.sin_addr) != 1) { fprintf(stderr, "sse-streams: bad host %s\n", host); exit(1); }
    if (connect(descriptor, (struct sockaddr *)&address, sizeof address) != 0) fail("connect");
    char request[LINE_BYTES_MAX * 2];
    int length = snprintf(request, sizeof request,
        "GET /v1/live?topics=house:%s HTTP/1.1\r\nHost: %s\r\nAuthorization: Bearer %s\r\nAccept: text/event-stream\r\n\r\n",
        house, host, token);
    if (write(descriptor, request, (size_t)length) != length) fail("write");
    /* The status line, then the rest of the head; whatever follows it is left for the loop. */
    char head[4096];
    size_t got = 0;
    while (got < sizeof head - 1) {
        ssize_t n = read(descriptor, head + got, 1); /* byte by byte: only the head, once per stream */
        if (n <= 0) fail("reading the response head");
        got += (size_t)n;
        if (got >= 4 && memcmp(head + got - 4, "\r\n\r\n", 4) == 0) break;
    }
    head[got] = 0;
    if (strncmp(head, "HTTP/1.1 200", 12) != 0) {
        fprintf(stderr, "sse-streams: a stream was refused: %.80s\n", head);
        exit(1);
    }
    return descriptor;
}

int main(int argc, char **argv) {
    if (argc != 3) { fprintf(stderr, "usage: sse-streams HOST PORT < \"token house\" lines\n"); return 2; }
    const char *host = argv[1];
    int port = atoi(argv[2]);
    int epoll = epoll_create1(0);
    if (epoll < 0) fail("epoll_create1");
    static int descriptors[STREAMS_MAX];
    static char carry[STREAMS_MAX][CARRY_BYTES];
    static size_t carried[STREAMS_MAX];
    int streams = 0;
    char line[LINE_BYTES_MAX], token[LINE_BYTES_MAX], house[LINE_BYTES_MAX];
    while (fgets(line, sizeof line, stdin)) {
        if (strncmp(line, "go", 2) == 0) break;
        if (sscanf(line, "%1023s %1023s", token, house) != 2) continue;
        if (streams == STREAMS_MAX) { fprintf(stderr, "sse-streams: more than %d streams\n", STREAMS_MAX); return 1; }
        descriptors[streams] = open_stream(host, port, token, house);
        struct epoll_event interest = { .events = EPOLLIN, .data.u32 = (unsigned)streams };
        if (epoll_ctl(epoll, EPOLL_CTL_ADD, descriptors[streams], &interest) != 0) fail("epoll_ctl");
        streams++;
    }
    struct epoll_event input = { .events = EPOLLIN, .data.u32 = STREAMS_MAX };
    if (epoll_ctl(epoll, EPOLL_CTL_ADD, STDIN_FILENO, &input) != 0) fail("epoll_ctl stdin");
    printf("ready %d\n", streams);
    fflush(stdout);

    static char buffer[CARRY_BYTES + READ_BYTES];
    struct epoll_event ready[64];
    for (;;) {
        int count = epoll_wait(epoll, ready, 64, -1);
        if (count < 0) { if (errno == EINTR) continue; fail("epoll_wait"); }
        for (int i = 0; i < count; i++) {
            unsigned stream = ready[i].data.u32;
            if (stream == STREAMS_MAX) goto stop; /* "stop", or stdin closed */
            memcpy(buffer, carry[stream], carried[stream]);
            ssize_t n = read(descriptors[stream], buffer + carried[stream], READ_BYTES);
            if (n <= 0) { epoll_ctl(epoll, EPOLL_CTL_DEL, descriptors[stream], NULL); continue; }
            double seconds = now_seconds();
            size_t length = carried[stream] + (size_t)n;
            scan((int)stream, buffer, length, carried[stream], seconds);
            size_t keep = length < CARRY_BYTES ? length : CARRY_BYTES;
            memcpy(carry[stream], buffer + length - keep, keep);
            carried[stream] = keep;
        }
    }
stop:
    for (size_t i = 0; i < arrival_count; i++) printf("%d %llu %.6f\n", arrivals[i].stream, arrivals[i].id, arrivals[i].seconds);
    printf("end\n");
    fflush(stdout);
    for (int i = 0; i < streams; i++) close(descriptors[i]);
    return 0;
}
