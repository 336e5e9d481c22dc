package io.chanledger.api.ledger.channels.command;

import io.chanledger.api.config.ChainProperties;
import io.chanledger.domain.channel.AcceptVoucher;
import io.chanledger.domain.channel.ChannelLookup;
import io.chanledger.domain.channel.MeteredRequest;
import io.chanledger.domain.channel.OnChainChannel;
import io.chanledger.domain.channel.SignedVoucher;
import io.chanledger.domain.channel.VoucherReceipt;
import io.chanledger.domain.channel.VoucherRejectedException;
import io.chanledger.domain.channel.VoucherRejection;
import io.chanledger.domain.eip712.ChanTypedData;
import io.chanledger.domain.eip712.SignatureVerdict;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Clock;
import java.util.EnumMap;
import java.util.Map;
import java.util.Optional;
import org.springframework.stereotype.Service;

/**
 * The voucher hot path, shared by the ledger API and the provider gateway: hash, recover
 * the signer under the contract's rule (outside any per-channel lock), then let the Channel
 * aggregate decide. A voucher for a channel the listener has not recorded yet is judged against
 * the contract's own view of the channel instead of being refused.
 */
@Service
public class VoucherAdmission {

    private final ChannelCommits commits;
    private final ChanTypedData typedData;
    private final FreshChannelLookups channelLookups;
    private final EarlierVouchers earlierVouchers;
    private final Clock clock;
    private final Timer admissionTimer;
    private final Counter accepted;
    private final Counter duplicates;
    private final Map<VoucherRejection, Counter> rejected = new EnumMap<>(VoucherRejection.class);

    VoucherAdmission(ChannelCommits commits, ChainProperties chain, FreshChannelLookups channelLookups,
                     EarlierVouchers earlierVouchers, Clock clock, MeterRegistry meters) {
        this.commits = commits;
        this.typedData = new ChanTypedData(chain.signingDomain());
        this.channelLookups = channelLookups;
        this.earlierVouchers = earlierVouchers;
        this.clock = clock;
        this.admissionTimer = Timer.builder("chan.voucher.admission")
                .description("time to judge a voucher, accepted or not")
                .register(meters);
        this.accepted = Counter.builder("chan.vouchers.accepted").tag("duplicate", "false").register(meters);
        this.duplicates = Counter.builder("chan.vouchers.accepted").tag("duplicate", "true").register(meters);
        for (VoucherRejection reason : VoucherRejection.values()) {
            rejected.put(reason, Counter.builder("chan.vouchers.rejected").tag("reason", reason.code()).register(meters));
        }
    }

    /**
     * Judges a voucher, parsed at the HTTP edge; throws {@link VoucherRejectedException} naming
     * the reason when it is refused. A voucher that pays for {@code request} at the provider
     * gateway is judged by the Channel aggregate's metering rules too (see {@link MeteredRequest});
     * {@code request} is null for a plain voucher. A plain voucher accepted before is answered as the
     * first time (a duplicate), also when it is older than the aggregate remembers ({@link EarlierVouchers}).
     */
    public VoucherReceipt admit(SignedVoucher voucher, MeteredRequest request) {
        Timer.Sample sample = Timer.start();
        try {
            VoucherReceipt receipt = judge(voucher, request);
            (receipt.duplicate() ? duplicates : accepted).increment();
            return receipt;
        } catch (VoucherRejectedException rejection) {
            // a plain voucher older than the aggregate remembers: answered as the first time if it is one
            Optional<VoucherReceipt> resent = request == null && EarlierVouchers.mayBeResent(rejection.reason())
                    ? earlierVouchers.firstAnswer(voucher) : Optional.empty();
            if (resent.isPresent()) {
                duplicates.increment();
                return resent.get();
            }
            rejected.get(rejection.reason()).increment();
            throw rejection;
        } finally {
            sample.stop(admissionTimer);
        }
    }

    private VoucherReceipt judge(SignedVoucher voucher, MeteredRequest request) {
        SignatureVerdict verdict = voucher.verify(typedData);
        if (verdict instanceof SignatureVerdict.Rejected(var reason)) {
            throw new VoucherRejectedException(VoucherRejection.INVALID_SIGNATURE,
                    "the signature is not one the channel contract accepts: " + reason.code());
        }
        String signer = ((SignatureVerdict.Recovered) verdict).signer();
        AcceptVoucher command = voucher.toCommand(signer, clock.instant().getEpochSecond(), request);
        try {
            return accept(command);
        } catch (VoucherRejectedException rejection) {
            if (rejection.reason() != VoucherRejection.CHANNEL_NOT_FOUND) {
                throw rejection;
            }
            // not recorded yet (the listener waits for finality): the contract's view decides, within the look-up budgets
            OnChainChannel onChain = channelLookups.find(voucher.channelId()).orElseThrow(() ->
                    new VoucherRejectedException(VoucherRejection.CHANNEL_NOT_FOUND,
                            "no channel " + voucher.channelId() + " is known to the ledger or the contract"));
            return accept(command.openingFrom(onChain));
        }
    }

    private VoucherReceipt accept(AcceptVoucher command) {
        return commits.accept(command);
    }
}
