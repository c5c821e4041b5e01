// The bytes of the built-in offline catalog, compiled into the binary from catalog_data.c, so the
// tool needs no file beside it. The format is described in docs/catalog.md.
#ifndef STREAM_SEARCH_CATALOG_DATA_H
#define STREAM_SEARCH_CATALOG_DATA_H

/// The catalog text (UTF-8, not NUL-terminated for the reader's purposes).
const char *stream_search_catalog_bytes(void);
/// How many bytes `stream_search_catalog_bytes` points to.
unsigned long stream_search_catalog_length(void);

#endif
