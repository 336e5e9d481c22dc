package io.chanledger.storage;

import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDate;
import org.axonframework.common.DateTimeUtils;

/**
 * The event store's {@code time_stamp} column as Axon writes and reads it
 * ({@code yyyy-MM-ddTHH:mm:ss.fffZ}: UTC, three fraction digits written, three to nine read),
 * without a {@code DateTimeFormatter}: the formatter costs more than the rest of reading an event's
 * row, and a rebuild reads one per event, the store's reader and the read models read each live
 * event's, the commit workers write each (BENCHMARKS.md, "Replay" and "The paid request": cheap identifiers and times). Anything
 * else goes to Axon's own methods ({@link DateTimeUtils}), so the text written and the instant read
 * are always the ones Axon's would give.
 *
 * <p>{@link #format} and {@link #parseOne} keep nothing between calls and are safe on any thread;
 * an instance's {@link #parse} remembers the last date, since a stream's events share few dates,
 * and belongs to one thread.
 */
public final class EventTimestamps {

    private static final int SECONDS_PER_DAY = 86_400;
    private static final int[] SCALE = {0, 100_000_000, 10_000_000, 1_000_000, 100_000, 10_000, 1_000, 100, 10, 1};
    /** {@code yyyy-MM-ddTHH:mm:ss.SSSZ} */
    private static final int WRITTEN_LENGTH = 24;
    private static final long FIRST_FOUR_DIGIT_DAY = LocalDate.of(0, 1, 1).toEpochDay();
    private static final long LAST_FOUR_DIGIT_DAY = LocalDate.of(9999, 12, 31).toEpochDay();

    /** The last date seen ("yyyy-MM-dd") and its epoch day. */
    private String lastDate = "";
    private long lastEpochDay;

    /** The text Axon writes for {@code instant} ({@link DateTimeUtils#formatInstant}). */
    public static String format(Instant instant) {
        long epochSecond = instant.getEpochSecond();
        long epochDay = Math.floorDiv(epochSecond, SECONDS_PER_DAY);
        if (epochDay < FIRST_FOUR_DIGIT_DAY || epochDay > LAST_FOUR_DIGIT_DAY) {
            return DateTimeUtils.formatInstant(instant);
        }
        int secondOfDay = (int) Math.floorMod(epochSecond, SECONDS_PER_DAY);
        LocalDate date = LocalDate.ofEpochDay(epochDay);
        char[] text = new char[WRITTEN_LENGTH];
        putDigits(text, 0, date.getYear(), 4);
        text[4] = '-';
        putDigits(text, 5, date.getMonthValue(), 2);
        text[7] = '-';
        putDigits(text, 8, date.getDayOfMonth(), 2);
        text[10] = 'T';
        putDigits(text, 11, secondOfDay / 3_600, 2);
        text[13] = ':';
        putDigits(text, 14, secondOfDay / 60 % 60, 2);
        text[16] = ':';
        putDigits(text, 17, secondOfDay % 60, 2);
        text[19] = '.';
        // the fraction cut to milliseconds, as Axon's formatter cuts it
        putDigits(text, 20, instant.getNano() / 1_000_000, 3);
        text[23] = 'Z';
        return new String(text);
    }

    /** The instant Axon reads from {@code text} ({@link DateTimeUtils#parseInstant}). */
    public static Instant parseOne(String text) {
        return parse(text, null);
    }

    /** As {@link #parseOne}, remembering the last date for the next call. */
    public Instant parse(String text) {
        return parse(text, this);
    }

    private static Instant parse(String text, EventTimestamps dates) {
        int length = text.length();
        if (length < 24 || length > 30 || text.charAt(4) != '-' || text.charAt(7) != '-' || text.charAt(10) != 'T'
                || text.charAt(13) != ':' || text.charAt(16) != ':' || text.charAt(19) != '.'
                || text.charAt(length - 1) != 'Z') {
            return DateTimeUtils.parseInstant(text);
        }
        int hour = digits(text, 11, 13);
        int minute = digits(text, 14, 16);
        int second = digits(text, 17, 19);
        int fraction = digits(text, 20, length - 1);
        if (hour < 0 || hour > 23 || minute < 0 || minute > 59 || second < 0 || second > 59 || fraction < 0) {
            return DateTimeUtils.parseInstant(text);
        }
        long epochDay;
        if (dates != null && dates.lastDate.length() == 10 && text.regionMatches(0, dates.lastDate, 0, 10)) {
            epochDay = dates.lastEpochDay;
        } else {
            int year = digits(text, 0, 4);
            int month = digits(text, 5, 7);
            int day = digits(text, 8, 10);
            if (year < 0 || month < 0 || day < 0) {
                return DateTimeUtils.parseInstant(text);
            }
            try {
                epochDay = LocalDate.of(year, month, day).toEpochDay();
            } catch (DateTimeException e) {
                return DateTimeUtils.parseInstant(text);
            }
            if (dates != null) {
                dates.lastDate = text.substring(0, 10);
                dates.lastEpochDay = epochDay;
            }
        }
        long seconds = epochDay * SECONDS_PER_DAY + hour * 3_600L + minute * 60L + second;
        return Instant.ofEpochSecond(seconds, (long) fraction * SCALE[length - 21]);
    }

    /** The decimal number in {@code text[from, to)}, or -1 when a character is not a digit. */
    private static int digits(String text, int from, int to) {
        int value = 0;
        for (int i = from; i < to; i++) {
            int digit = text.charAt(i) - '0';
            if (digit < 0 || digit > 9) {
                return -1;
            }
            value = value * 10 + digit;
        }
        return value;
    }

    private static void putDigits(char[] text, int at, int value, int width) {
        for (int i = at + width - 1; i >= at; i--) {
            text[i] = (char) ('0' + value % 10);
            value /= 10;
        }
    }
}
