package io.chanledger.api.gateway;

import java.util.ArrayList;
import java.util.List;

/**
 * The gateway's own token count, used to estimate a request before the upstream call, to bill a
 * stream cut short, and by the echo backend. A token is a maximal run of letters and digits, or
 * any single other character that is not whitespace: "Hello, world!" is 4 tokens. Real models'
 * tokenizers differ; where an upstream reports its usage, its figures are billed instead.
 */
final class Tokenizer {

    private Tokenizer() {
    }

    static long count(CharSequence text) {
        if (text == null) {
            return 0;
        }
        long tokens = 0;
        boolean inWord = false;
        for (int i = 0; i < text.length(); ) {
            int c = Character.codePointAt(text, i);
            i += Character.charCount(c);
            if (Character.isLetterOrDigit(c)) {
                if (!inWord) {
                    tokens++;
                    inWord = true;
                }
            } else {
                inWord = false;
                if (!Character.isWhitespace(c)) {
                    tokens++;
                }
            }
        }
        return tokens;
    }

    /**
     * The text cut into pieces of exactly one token each, every piece carrying the whitespace in
     * front of its token (trailing whitespace goes with the last piece): joined, they give the text back.
     */
    static List<String> pieces(String text) {
        List<String> pieces = new ArrayList<>();
        int start = 0;
        int i = 0;
        while (i < text.length()) {
            while (i < text.length() && Character.isWhitespace(text.codePointAt(i))) {
                i += Character.charCount(text.codePointAt(i));
            }
            if (i >= text.length()) {
                break;
            }
            int c = text.codePointAt(i);
            i += Character.charCount(c);
            if (Character.isLetterOrDigit(c)) {
                while (i < text.length() && Character.isLetterOrDigit(text.codePointAt(i))) {
                    i += Character.charCount(text.codePointAt(i));
                }
            }
            pieces.add(text.substring(start, i));
            start = i;
        }
        if (start < text.length()) {
            if (pieces.isEmpty()) {
                pieces.add(text.substring(start));
            } else {
                pieces.set(pieces.size() - 1, pieces.getLast() + text.substring(start));
            }
        }
        return pieces;
    }

    /** The first {@code tokens} tokens of the text (with the whitespace between them). */
    static String truncate(String text, long tokens) {
        StringBuilder out = new StringBuilder();
        long taken = 0;
        for (String piece : pieces(text)) {
            if (taken == tokens) {
                break;
            }
            out.append(piece);
            taken += count(piece);
        }
        return out.toString().stripTrailing();
    }
}
