// The classes of 32 bytes at once, one bit a byte, for the CSV lines read in one look
// (PlayerFormRecords' CSVFastLine): SSE2's byte comparisons and its instruction that gathers the
// high bit of each byte, which Swift's SIMD types do not offer. SSE2 is part of every x86-64
// processor; elsewhere the Swift code packs the bits itself.
#ifndef CBYTECLASSES_H
#define CBYTECLASSES_H

#include <stdint.h>

/// Where line breaks, field delimiters, double quotes and bytes beyond ASCII are among 32 bytes:
/// bit i is byte i.
typedef struct {
    uint32_t lineBreaks;
    uint32_t delimiters;
    uint32_t quotes;
    uint32_t beyondASCII;
} pf_byte_classes;

#if defined(__SSE2__)
#include <emmintrin.h>

/// The classes of the 32 bytes at `bytes`, which must all be readable, fields being separated by
/// `delimiter`.
static inline pf_byte_classes pf_classify32(const uint8_t *bytes, uint8_t delimiter) {
    __m128i low = _mm_loadu_si128((const __m128i *)bytes);
    __m128i high = _mm_loadu_si128((const __m128i *)(bytes + 16));
    __m128i lineBreak = _mm_set1_epi8('\n');
    __m128i comma = _mm_set1_epi8((char)delimiter);
    __m128i quote = _mm_set1_epi8('"');
    pf_byte_classes classes;
    classes.lineBreaks = (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(low, lineBreak))
        | (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(high, lineBreak)) << 16;
    classes.delimiters = (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(low, comma))
        | (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(high, comma)) << 16;
    classes.quotes = (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(low, quote))
        | (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(high, quote)) << 16;
    // A byte beyond ASCII is the one whose high bit is set.
    classes.beyondASCII = (uint32_t)_mm_movemask_epi8(low) | (uint32_t)_mm_movemask_epi8(high) << 16;
    return classes;
}
#endif

#endif
