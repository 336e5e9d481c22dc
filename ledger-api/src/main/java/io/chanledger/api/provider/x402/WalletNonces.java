package io.chanledger.api.provider.x402;

import java.math.BigInteger;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;
import javax.sql.DataSource;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The provider wallet's transaction nonces, from {@code x402_wallet_nonce}: the wallet's row is
 * locked, the nonce used is the larger of its next nonce and the node's pending count, and the row
 * moves on only when the nonce was used. Instances of one provider on one database thus sign one
 * transaction per nonce, and a nonce whose transaction the node refused is used again rather than
 * left as a gap that would hold every later transaction back. Within this process one user at a
 * time holds the lock (the others wait here, not on a pooled connection).
 */
final class WalletNonces {

    /** What is done at a nonce, under the lock. */
    @FunctionalInterface
    interface AtNonce<T, E extends Exception> {
        /** Returns when the nonce was used (the row moves on); throws to leave it unused. */
        T use(BigInteger nonce) throws E;
    }

    private final DataSource dataSource;
    private final String wallet;
    private final Supplier<BigInteger> pendingCount;
    private final ReentrantLock lock = new ReentrantLock(true);

    WalletNonces(DataSource dataSource, String wallet, Supplier<BigInteger> pendingCount) {
        this.dataSource = dataSource;
        this.wallet = wallet;
        this.pendingCount = pendingCount;
    }

    <T, E extends Exception> T withNext(AtNonce<T, E> atNonce) throws E {
        new JdbcTemplate(dataSource).update("INSERT INTO x402_wallet_nonce (wallet, next_nonce) VALUES (?, 0)"
                + " ON CONFLICT (wallet) DO NOTHING", wallet);
        lock.lock();
        try (Connection connection = dataSource.getConnection()) {
            connection.setAutoCommit(false);
            try {
                long next;
                try (PreparedStatement locked = connection.prepareStatement(
                        "SELECT next_nonce FROM x402_wallet_nonce WHERE wallet = ? FOR UPDATE")) {
                    locked.setString(1, wallet);
                    try (ResultSet rs = locked.executeQuery()) {
                        rs.next();
                        next = rs.getLong(1);
                    }
                }
                BigInteger nonce = pendingCount.get().max(BigInteger.valueOf(next));
                T result = atNonce.use(nonce);
                try (PreparedStatement advance = connection.prepareStatement(
                        "UPDATE x402_wallet_nonce SET next_nonce = ? WHERE wallet = ?")) {
                    advance.setLong(1, nonce.longValueExact() + 1);
                    advance.setString(2, wallet);
                    advance.executeUpdate();
                }
                connection.commit();
                return result;
            } catch (Exception e) {
                connection.rollback(); // the nonce stays unused: the next user takes it
                throw e;
            }
        } catch (SQLException e) {
            throw new DataAccessResourceFailureException("x402 wallet nonce", e);
        } finally {
            lock.unlock();
        }
    }
}
