package io.chanledger.api.config;

import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import org.axonframework.common.DateTimeUtils;

/**
 * An event's time as the event store keeps it: Axon's text, UTC to the millisecond
 * ({@code 2026-11-28T07:01:36.123Z}, {@link DateTimeUtils#formatInstant}), written and read by hand.
 * java.time's general formatter took 1–2 µs for each, and under load the store's reader and the
 * read models' processor read every event's time, and the commit workers write it
 * (BENCHMARKS.md, "Round twelve"). Anything outside that exact shape (another offset, another
 * precision, a year before 0 or after 9999) goes to Axon's own methods, so the text written and
 * the instant read are always the ones Axon's would give; a test compares them over many times.
 */
final class EventTimestamps {

    /** {@code yyyy-MM-ddTHH:mm:ss.SSSZ} */
    private static final int LENGTH = 24;
    private static final int SECONDS_PER_DAY = 86_400;

    private EventTimestamps() {
    }

    /** The text Axon would write for {@code instant}: {@link DateTimeUtils#formatInstant}. */
    static String format(Instant instant) {
        long epochSecond = instant.getEpochSecond();
        long epochDay = Math.floorDiv(epochSecond, SECONDS_PER_DAY);
        int secondOfDay = (int) Math.floorMod(epochSecond, SECONDS_PER_DAY);
        if (epochDay < LocalDate.of(0, 1, 1).toEpochDay() || epochDay > LocalDate.of(9999, 12, 31).toEpochDay()) {
            return DateTimeUtils.formatInstant(instant);
        }
        LocalDate date = LocalDate.ofEpochDay(epochDay);
        char[] text = new char[LENGTH];
        digits(text, 0, date.getYear(), 4);
        text[4] = '-';
        digits(text, 5, date.getMonthValue(), 2);
        text[7] = '-';
        digits(text, 8, date.getDayOfMonth(), 2);
        text[10] = 'T';
        digits(text, 11, secondOfDay / 3600, 2);
        text[13] = ':';
        digits(text, 14, secondOfDay / 60 % 60, 2);
        text[16] = ':';
        digits(text, 17, secondOfDay % 60, 2);
        text[19] = '.';
        // the fraction cut to milliseconds, as Axon's formatter does
        digits(text, 20, instant.getNano() / 1_000_000, 3);
        text[23] = 'Z';
        return new String(text);
    }

    /** The instant Axon would read from {@code text}: {@link DateTimeUtils#parseInstant}. */
    static Instant parse(CharSequence text) {
        if (text.length() != LENGTH || text.charAt(4) != '-' || text.charAt(7) != '-' || text.charAt(10) != 'T'
                || text.charAt(13) != ':' || text.charAt(16) != ':' || text.charAt(19) != '.'
                || text.charAt(23) != 'Z') {
            return DateTimeUtils.parseInstant(text);
        }
        int year = number(text, 0, 4);
        int month = number(text, 5, 2);
        int day = number(text, 8, 2);
        int hour = number(text, 11, 2);
        int minute = number(text, 14, 2);
        int second = number(text, 17, 2);
        int millis = number(text, 20, 3);
        if (year < 0 || month < 1 || month > 12 || day < 1 || day > 31 || hour < 0 || hour > 23 || minute < 0
                || minute > 59 || second < 0 || second > 59 || millis < 0
                || day > LocalDate.of(year, month, 1).lengthOfMonth()) {
            return DateTimeUtils.parseInstant(text);
        }
        long epochSecond = LocalDate.of(year, month, day).atStartOfDay().toEpochSecond(ZoneOffset.UTC)
                + hour * 3600L + minute * 60L + second;
        return Instant.ofEpochSecond(epochSecond, millis * 1_000_000L);
    }

    private static void digits(char[] text, int at, int value, int width) {
        for (int i = at + width - 1; i >= at; i--) {
            text[i] = (char) ('0' + value % 10);
            value /= 10;
        }
    }

    /** The decimal number of {@code width} ASCII digits at {@code at}; -1 if any is not one. */
    private static int number(CharSequence text, int at, int width) {
        int value = 0;
        for (int i = at; i < at + width; i++) {
            char c = text.charAt(i);
            if (c < '0' || c > '9') {
                return -1;
            }
            value = value * 10 + (c - '0');
        }
        return value;
    }
}
