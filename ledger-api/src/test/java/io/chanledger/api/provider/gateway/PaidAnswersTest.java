package io.chanledger.api.provider.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.chanledger.api.support.Channels;
import io.chanledger.api.support.LedgerIntegrationTest;
import io.chanledger.domain.channel.SignedVoucher;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The answers kept by the vouchers that paid them are written with the transaction that settles
 * their requests: all of a commit's answers at its end, none of a transaction rolled back, and
 * none carried over into the next transaction of the same thread.
 */
class PaidAnswersTest extends LedgerIntegrationTest {

    @Autowired
    private JdbcTemplate jdbc;

    @Autowired
    private PlatformTransactionManager transactions;

    private PaidAnswers answers() {
        return new PaidAnswers(jdbc, new ObjectMapper(), Clock.systemUTC(), Duration.ofHours(1), 1_000_000);
    }

    private static SignedVoucher voucher(String channelId, long nonce) {
        return new SignedVoucher(channelId, BigInteger.valueOf(1_000 * nonce), BigInteger.valueOf(nonce), new byte[65]);
    }

    private static PaidAnswers.Answer answer(String text) {
        return new PaidAnswers.Answer(Map.of("X-CHAN-Cost", "7"), ("{\"text\":\"" + text + "\"}").getBytes(StandardCharsets.UTF_8));
    }

    private int kept(String channelId) {
        return jdbc.queryForObject("SELECT count(*) FROM gateway_answer WHERE channel_id = ?", Integer.class, channelId);
    }

    @Test
    void theAnswersOfOneCommitAreAllKeptWhenItCommitsAndEachIsFoundByItsVoucher() {
        PaidAnswers answers = answers();
        String channelId = Channels.randomChannelId();
        new TransactionTemplate(transactions).executeWithoutResult(status -> {
            for (long nonce = 1; nonce <= 5; nonce++) {
                answers.keep(voucher(channelId, nonce), answer("answer " + nonce));
            }
            assertThat(kept(channelId)).as("written by the commit, not before").isZero();
        });
        assertThat(kept(channelId)).isEqualTo(5);
        assertThat(answers.find(voucher(channelId, 3))).hasValueSatisfying(found ->
                assertThat(new String(found.body(), StandardCharsets.UTF_8)).isEqualTo("{\"text\":\"answer 3\"}"));
    }

    @Test
    void aTransactionRolledBackKeepsNoneOfItsAnswersAndTheNextKeepsOnlyItsOwn() {
        PaidAnswers answers = answers();
        String channelId = Channels.randomChannelId();
        TransactionTemplate template = new TransactionTemplate(transactions);
        assertThatThrownBy(() -> template.executeWithoutResult(status -> {
            answers.keep(voucher(channelId, 1), answer("rolled back"));
            throw new IllegalStateException("the settlement's commit failed");
        })).isInstanceOf(IllegalStateException.class);
        assertThat(kept(channelId)).isZero();

        template.executeWithoutResult(status -> answers.keep(voucher(channelId, 2), answer("kept")));
        assertThat(jdbc.queryForList("SELECT nonce FROM gateway_answer WHERE channel_id = ?", Long.class, channelId))
                .containsExactly(2L);
    }

    @Test
    void outsideATransactionAnAnswerIsKeptAtOnceAndAVoucherAlreadyAnsweredKeepsItsFirstAnswer() {
        PaidAnswers answers = answers();
        String channelId = Channels.randomChannelId();
        answers.keep(voucher(channelId, 1), answer("first"));
        assertThat(kept(channelId)).isEqualTo(1);
        new TransactionTemplate(transactions).executeWithoutResult(status ->
                answers.keep(voucher(channelId, 1), answer("second")));
        assertThat(answers.find(voucher(channelId, 1))).hasValueSatisfying(found ->
                assertThat(new String(found.body(), StandardCharsets.UTF_8)).contains("first"));
    }
}
