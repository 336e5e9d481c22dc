package io.chanledger.api.provider.gateway;

import com.knuddels.jtokkit.Encodings;
import com.knuddels.jtokkit.api.Encoding;
import com.knuddels.jtokkit.api.EncodingRegistry;
import com.knuddels.jtokkit.api.EncodingType;
import com.knuddels.jtokkit.api.IntArrayList;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The gateway's token counts, with the byte-pair encodings of OpenAI's models (tiktoken's, through
 * jtokkit): used for the hold before the upstream call, to bill what the upstream reported no
 * usage for (a stream cut short, an upstream without usage), and by the echo backend. A model's
 * encoding is {@code o200k_base} for the gpt-4o, gpt-4.1, gpt-4.5, gpt-5 and o-series families,
 * jtokkit's own mapping for older OpenAI models ({@code cl100k_base} for gpt-4 and gpt-3.5), and
 * {@link #FALLBACK} for every other model, the echo backend's included. For other families (Llama,
 * Mistral, …) that is an approximation; their upstreams' reported usage is what is billed.
 */
final class Tokenizer {

    /** The encoding of models no OpenAI family claims. */
    static final EncodingType FALLBACK = EncodingType.CL100K_BASE;

    /** Name prefixes of the model families that use {@code o200k_base}, which jtokkit 1.1 maps only in part. */
    private static final List<String> O200K_FAMILIES = List.of("gpt-4o", "chatgpt-4o", "gpt-4.1", "gpt-4.5",
            "gpt-5", "o1", "o3", "o4");

    private static final EncodingRegistry ENCODINGS = Encodings.newLazyEncodingRegistry();
    private static final Map<EncodingType, Tokenizer> BY_ENCODING = new EnumMap<>(EncodingType.class);

    private final Encoding encoding;

    private Tokenizer(Encoding encoding) {
        this.encoding = encoding;
    }

    /**
     * The tokenizer of {@code model}. A routing prefix such as {@code openai/} is ignored; the
     * client chooses the name, so only the handful of encodings are ever kept.
     */
    static Tokenizer forModel(String model) {
        return of(encodingOf(model));
    }

    static EncodingType encodingOf(String model) {
        if (model == null) {
            return FALLBACK;
        }
        String name = model.substring(model.lastIndexOf('/') + 1).toLowerCase(Locale.ROOT);
        for (String family : O200K_FAMILIES) {
            if (name.equals(family) || name.startsWith(family + "-")) {
                return EncodingType.O200K_BASE;
            }
        }
        return ENCODINGS.getEncodingForModel(name)
                .flatMap(encoding -> EncodingType.fromName(encoding.getName()))
                .orElse(FALLBACK);
    }

    static synchronized Tokenizer of(EncodingType type) {
        return BY_ENCODING.computeIfAbsent(type, t -> new Tokenizer(ENCODINGS.getEncoding(t)));
    }

    String encodingName() {
        return encoding.getName();
    }

    /** Tokens of the text as ordinary text: a special token's spelling in a message is counted as text. */
    long count(String text) {
        return text == null || text.isEmpty() ? 0 : encoding.countTokensOrdinary(text);
    }

    /**
     * The text cut into pieces of one token each, in order; joined, they give the text back. A
     * character whose UTF-8 bytes are split across tokens stays whole, in the piece of its last
     * token, so such a piece may hold more than one token.
     */
    List<String> pieces(String text) {
        List<String> pieces = new ArrayList<>();
        if (text == null || text.isEmpty()) {
            return pieces;
        }
        IntArrayList tokens = encoding.encodeOrdinary(text);
        CharsetDecoder utf8 = StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT).onUnmappableCharacter(CodingErrorAction.REPORT);
        ByteBuffer pending = ByteBuffer.allocate(0);
        for (int i = 0; i < tokens.size(); i++) {
            IntArrayList one = new IntArrayList(1);
            one.add(tokens.get(i));
            byte[] bytes = encoding.decodeBytes(one);
            ByteBuffer joined = ByteBuffer.allocate(pending.remaining() + bytes.length).put(pending).put(bytes).flip();
            try {
                pieces.add(utf8.decode(joined.duplicate()).toString());
                pending = ByteBuffer.allocate(0);
            } catch (CharacterCodingException incomplete) {
                pending = joined;
            }
        }
        if (pending.hasRemaining()) {
            pieces.add(new String(pending.array(), pending.position(), pending.remaining(), StandardCharsets.UTF_8));
        }
        return pieces;
    }

    /** The text's first {@code tokens} tokens (a character split across tokens is left out whole). */
    String truncate(String text, long tokens) {
        if (text == null || tokens <= 0) {
            return "";
        }
        IntArrayList all = encoding.encodeOrdinary(text);
        if (all.size() <= tokens) {
            return text;
        }
        IntArrayList kept = new IntArrayList((int) tokens);
        for (int i = 0; i < tokens; i++) {
            kept.add(all.get(i));
        }
        byte[] bytes = encoding.decodeBytes(kept);
        CharsetDecoder utf8 = StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.IGNORE).onUnmappableCharacter(CodingErrorAction.IGNORE);
        try {
            return utf8.decode(ByteBuffer.wrap(bytes)).toString();
        } catch (CharacterCodingException ignoredAlways) {
            throw new IllegalStateException("a decoder that ignores malformed input reported some", ignoredAlways);
        }
    }
}
