package io.logbloom.chunks;

/**
 * The inflated sections of a block's {@link ColumnarEncoding#LINES_TOKENIZED} line column, for a reader that
 * evaluates on tokens instead of rebuilding the lines (layout in {@code ColumnarLineTokens}): token {@code id}'s
 * bytes are {@code dictionary[tokenStarts[id], tokenStarts[id] + tokenLengths[id])}; {@code codes} holds per line
 * uvarint codes (0 = the next number, 1 = end of line, k = token k - 2); {@code numbers} holds the numbers as
 * uvarints in order of use, each printed as its canonical decimal. The arrays are shared with the block: readers
 * must not write them. A verified column may still be malformed (a code outside the dictionary, a truncated
 * varint); a reader must check as it walks.
 *
 * @param rows the number of lines
 */
public record ColumnarLineTokenView(byte[] dictionary, int[] tokenStarts, int[] tokenLengths, byte[] codes,
        byte[] numbers, int rows) {}
