package io.chanledger.projections.rebuild;

import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDate;
import org.axonframework.common.DateTimeUtils;

/**
 * Parses the event store's {@code time_stamp} column, as Axon writes it
 * ({@code yyyy-MM-ddTHH:mm:ss.fffZ}, three to nine fraction digits), without a
 * {@code DateTimeFormatter}: a rebuild parses one per event, and the formatter costs more than
 * the rest of reading the row. Anything else goes to Axon's own parser, so the result is always
 * the one Axon would give.
 */
public final class EventTimestamps {

    private static final int SECONDS_PER_DAY = 86_400;
    private static final int[] SCALE = {0, 100_000_000, 10_000_000, 1_000_000, 100_000, 10_000, 1_000, 100, 10, 1};

    /** The last date seen ("yyyy-MM-dd") and its epoch day: events of a stream share few dates. */
    private String lastDate = "";
    private long lastEpochDay;

    public Instant parse(String text) {
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
        if (text.regionMatches(0, lastDate, 0, 10) && lastDate.length() == 10) {
            epochDay = lastEpochDay;
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
            lastDate = text.substring(0, 10);
            lastEpochDay = epochDay;
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
}
