package io.chanledger.projections.provideraccount;

import static io.chanledger.projections.readmodel.Sql.instant;
import static io.chanledger.projections.readmodel.Sql.setInstant;
import static io.chanledger.projections.readmodel.Sql.setUint;
import static io.chanledger.projections.readmodel.Sql.uint;

import io.chanledger.projections.readmodel.Sql;
import io.chanledger.projections.readmodel.TableChecksum;
import java.math.BigInteger;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import javax.sql.DataSource;
import org.springframework.jdbc.core.BatchPreparedStatementSetter;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

/**
 * The table {@code provider_account}; the amount at risk is summed from {@code channel_balance} when
 * asked, because it depends on the clock.
 */
@Component
public class ProviderAccountRepository {

    private static final String ACCOUNT_COLUMNS = "provider, channels, open_channels, expired_channels, claimable,"
            + " claimed, fees_paid, last_activity";

    private final JdbcTemplate jdbc;
    private final JdbcTemplate streaming;

    public ProviderAccountRepository(DataSource dataSource) {
        this.jdbc = new JdbcTemplate(dataSource);
        this.streaming = new JdbcTemplate(dataSource);
        this.streaming.setFetchSize(1_000);
    }

    /**
     * Adds {@code deltas} to the accounts, creating the ones that do not exist yet and removing
     * the ones left without channels. Providers are written in key order so that concurrent
     * batches lock accounts in the same order.
     */
    void addToAccounts(Map<String, Totals> deltas, Map<String, Instant> lastActivity) {
        List<String> providers = new ArrayList<>(deltas.keySet());
        providers.sort(null);
        int[] updated = jdbc.batchUpdate("UPDATE provider_account SET channels = channels + ?,"
                + " open_channels = open_channels + ?, expired_channels = expired_channels + ?,"
                + " claimable = claimable + ?, claimed = claimed + ?, fees_paid = fees_paid + ?,"
                + " last_activity = GREATEST(last_activity, COALESCE(CAST(? AS TIMESTAMP WITH TIME ZONE), last_activity))"
                + " WHERE provider = ?",
                new BatchPreparedStatementSetter() {
                    @Override
                    public void setValues(PreparedStatement s, int i) throws SQLException {
                        String provider = providers.get(i);
                        Totals t = deltas.get(provider);
                        s.setLong(1, t.channels());
                        s.setLong(2, t.openChannels());
                        s.setLong(3, t.expiredChannels());
                        setUint(s, 4, t.claimable());
                        setUint(s, 5, t.claimed());
                        setUint(s, 6, t.feesPaid());
                        setInstant(s, 7, lastActivity.get(provider));
                        s.setString(8, provider);
                    }

                    @Override
                    public int getBatchSize() {
                        return providers.size();
                    }
                });
        List<String> missing = new ArrayList<>();
        for (int i = 0; i < updated.length; i++) {
            if (updated[i] == 0) {
                missing.add(providers.get(i));
            }
        }
        if (!missing.isEmpty()) {
            jdbc.batchUpdate("INSERT INTO provider_account (" + ACCOUNT_COLUMNS + ") VALUES (" + Sql.placeholders(8)
                    + ")", missing, missing.size(), (s, provider) -> {
                        Totals t = deltas.get(provider);
                        s.setString(1, provider);
                        s.setLong(2, t.channels());
                        s.setLong(3, t.openChannels());
                        s.setLong(4, t.expiredChannels());
                        setUint(s, 5, t.claimable());
                        setUint(s, 6, t.claimed());
                        setUint(s, 7, t.feesPaid());
                        setInstant(s, 8, lastActivity.get(provider));
                    });
        }
        List<String> lost = providers.stream().filter(provider -> deltas.get(provider).channels() < 0).toList();
        if (!lost.isEmpty()) {
            jdbc.batchUpdate("DELETE FROM provider_account WHERE provider = ? AND channels = 0", lost, lost.size(),
                    (s, provider) -> s.setString(1, provider));
        }
    }

    /** The provider's account with the amount at risk among channels expiring at or before {@code atRiskExpiry}. */
    public Optional<ProviderAccount> find(String provider, long atRiskExpiry) {
        List<ProviderAccount> accounts = jdbc.query("SELECT " + ACCOUNT_COLUMNS + " FROM provider_account WHERE provider = ?",
                (r, n) -> new ProviderAccount(r.getString("provider"), r.getLong("channels"), r.getLong("open_channels"),
                        r.getLong("expired_channels"), uint(r, "claimable"), uint(r, "claimed"), uint(r, "fees_paid"),
                        BigInteger.ZERO, 0, instant(r, "last_activity")), provider);
        if (accounts.isEmpty()) {
            return Optional.empty();
        }
        ProviderAccount totals = accounts.getFirst();
        return jdbc.query("SELECT COUNT(*) AS n, COALESCE(SUM(claimable), 0) AS amount FROM channel_balance"
                        + " WHERE provider = ? AND status <> 'closed' AND claimable > 0 AND expiry <= ?",
                (r, n) -> new ProviderAccount(totals.provider(), totals.channels(), totals.openChannels(),
                        totals.expiredChannels(), totals.claimable(), totals.claimed(), totals.feesPaid(),
                        uint(r, "amount"), r.getLong("n"), totals.lastActivity()),
                provider, atRiskExpiry).stream().findFirst();
    }

    /** Accounts in provider order; run inside a transaction on PostgreSQL. */
    public TableChecksum checksum() {
        TableChecksum.Builder accounts = new TableChecksum.Builder("provider_account");
        streaming.query("SELECT " + ACCOUNT_COLUMNS + " FROM provider_account ORDER BY provider", rows -> {
            accounts.add(TableChecksum.line(rows.getString("provider"), rows.getLong("channels"),
                    rows.getLong("open_channels"), rows.getLong("expired_channels"), uint(rows, "claimable"),
                    uint(rows, "claimed"), uint(rows, "fees_paid"), instant(rows, "last_activity")));
        });
        return accounts.build();
    }

    public void deleteAll() {
        Sql.clear(jdbc, "provider_account");
    }
}
