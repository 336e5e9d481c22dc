package io.chanledger.domain.eip712.bench;

import fr.acinq.secp256k1.Secp256k1;
import io.chanledger.domain.eip712.ChanTypedData;
import io.chanledger.domain.eip712.ContractSignatureRule;
import io.chanledger.domain.eip712.DigestSigner;
import io.chanledger.domain.eip712.Eip712Domain;
import io.chanledger.domain.eip712.Hex;
import io.chanledger.domain.eip712.SignatureVerdict;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.atomic.AtomicLong;
import org.bouncycastle.crypto.digests.KeccakDigest;
import org.web3j.crypto.Hash;
import org.web3j.crypto.Keys;
import org.web3j.crypto.Sign;
import org.web3j.crypto.StructuredDataEncoder;

/**
 * Throughput of signature recovery and EIP-712 digests, single thread and two threads, to pick
 * the secp256k1 implementation with figures. Not a test: it asserts nothing about time. Each
 * operation cycles over 64 distinct vouchers signed by 64 keys; every figure is the median of
 * the measured rounds after a warm-up. Besides operations per wall-clock second it reports
 * operations per CPU-second of the measuring threads, which stays meaningful when other work
 * shares the machine. Run through deploy/bench/signature-bench.sh.
 *
 * <p>Arguments: {@code --warmup=<s> --seconds=<s per round> --rounds=<n> --threads=1,2} and
 * {@code --only=<text>} to run only the operations whose name contains the text.
 */
public final class SignatureBench {

    private static final String CONTRACT = "0x5FbDB2315678afecb367f032d93F642f64180aa3";
    private static final ChanTypedData TYPED = new ChanTypedData(Eip712Domain.chan(137, CONTRACT));
    private static final int SAMPLES = 64;

    private record Sample(byte[] channelId, BigInteger amount, BigInteger nonce, byte[] digest, byte[] signature,
                          Sign.SignatureData web3jSignature, byte[] rs64, int recoveryId, String typedDataJson,
                          String signer) {
    }

    @FunctionalInterface
    private interface Operation {
        long run(Sample sample) throws Exception;
    }

    private static volatile long sink;

    public static void main(String[] args) throws Exception {
        Map<String, String> options = parse(args);
        double warmup = Double.parseDouble(options.getOrDefault("warmup", "2"));
        double seconds = Double.parseDouble(options.getOrDefault("seconds", "2"));
        int rounds = Integer.parseInt(options.getOrDefault("rounds", "3"));
        int[] threadCounts = Arrays.stream(options.getOrDefault("threads", "1,2").split(","))
                .mapToInt(Integer::parseInt).toArray();

        List<Sample> samples = samples();
        Secp256k1 secp256k1 = Secp256k1.Companion.get();
        Map<String, Operation> operations = operations(secp256k1);
        String only = options.get("only");
        if (only != null) {
            operations.keySet().removeIf(name -> !name.toLowerCase().contains(only.toLowerCase()));
        }

        System.out.printf("java %s (%s), %d processors, %s/%s; recovery in ContractSignatureRule: %s%n",
                System.getProperty("java.version"), System.getProperty("java.vm.name"),
                Runtime.getRuntime().availableProcessors(), System.getProperty("os.name"),
                System.getProperty("os.arch"), ContractSignatureRule.implementation());
        System.out.printf("warm-up %.1f s, %d rounds of %.1f s per figure, median of rounds (min-max); ops/CPU-s divides"
                + " by the CPU time the measuring threads actually got, which other load on the machine does not skew%n%n",
                warmup, rounds, seconds);

        Map<String, Map<Integer, Double>> perCpuMedians = new LinkedHashMap<>();
        StringBuilder header = new StringBuilder("| operation |");
        StringBuilder rule = new StringBuilder("|---|");
        for (int threads : threadCounts) {
            String label = threads == 1 ? "1 thread" : threads + " threads";
            header.append(' ').append(label).append(", ops/s | ").append(label).append(", ops/CPU-s |");
            rule.append("---:|---:|");
        }
        System.out.println(header);
        System.out.println(rule);
        for (Map.Entry<String, Operation> operation : operations.entrySet()) {
            StringBuilder row = new StringBuilder("| " + operation.getKey() + " |");
            for (int threads : threadCounts) {
                measure(operation.getValue(), samples, threads, warmup);
                double[] perSecond = new double[rounds];
                double[] perCpuSecond = new double[rounds];
                for (int r = 0; r < rounds; r++) {
                    Throughput throughput = measure(operation.getValue(), samples, threads, seconds);
                    perSecond[r] = throughput.perSecond();
                    perCpuSecond[r] = throughput.perCpuSecond();
                }
                Arrays.sort(perSecond);
                Arrays.sort(perCpuSecond);
                perCpuMedians.computeIfAbsent(operation.getKey(), k -> new LinkedHashMap<>())
                        .put(threads, perCpuSecond[rounds / 2]);
                row.append(String.format(" %,.0f (%,.0f-%,.0f) | %,.0f |", perSecond[rounds / 2], perSecond[0],
                        perSecond[rounds - 1], perCpuSecond[rounds / 2]));
            }
            System.out.println(row);
        }
        System.out.println();
        if (perCpuMedians.keySet().containsAll(List.of(NATIVE, WEB3J, HAND_DIGEST, ENCODER_DIGEST))) {
            for (int threads : threadCounts) {
                System.out.printf("%d thread(s), per CPU-second: native / web3j recovery = %.2fx; "
                                + "hand-written / StructuredDataEncoder digest = %.1fx%n", threads,
                        perCpuMedians.get(NATIVE).get(threads) / perCpuMedians.get(WEB3J).get(threads),
                        perCpuMedians.get(HAND_DIGEST).get(threads) / perCpuMedians.get(ENCODER_DIGEST).get(threads));
            }
        }
        System.out.println("(sink " + sink + ")");
    }

    private static final String WEB3J = "web3j Sign.signedMessageHashToKey (recovery only)";
    private static final String NATIVE = "libsecp256k1 JNI ecdsaRecover (recovery only)";
    private static final String ENCODER_DIGEST = "web3j StructuredDataEncoder voucher digest (JSON in)";
    private static final String HAND_DIGEST = "ChanTypedData.voucherDigest";

    private static Map<String, Operation> operations(Secp256k1 secp256k1) {
        Map<String, Operation> operations = new LinkedHashMap<>();
        operations.put(WEB3J, s -> Sign.signedMessageHashToKey(s.digest(), s.web3jSignature()).longValue());
        operations.put(NATIVE, s -> secp256k1.ecdsaRecover(s.rs64(), s.digest(), s.recoveryId())[1]);
        operations.put(ENCODER_DIGEST, s -> new StructuredDataEncoder(s.typedDataJson()).hashStructuredData()[0]);
        operations.put(HAND_DIGEST, s -> TYPED.voucherDigest(s.channelId(), s.amount(), s.nonce())[0]);
        operations.put("keccak256, 64 bytes, web3j Hash.sha3", s -> Hash.sha3(s.rs64())[0]);
        operations.put("keccak256, 64 bytes, BouncyCastle KeccakDigest", s -> {
            KeccakDigest digest = new KeccakDigest(256);
            digest.update(s.rs64(), 0, 64);
            byte[] out = new byte[32];
            digest.doFinal(out, 0);
            return out[0];
        });
        operations.put("full verify: voucherDigest + ContractSignatureRule.recover + signer check", s -> {
            byte[] digest = TYPED.voucherDigest(s.channelId(), s.amount(), s.nonce());
            if (ContractSignatureRule.recover(digest, s.signature()) instanceof SignatureVerdict.Recovered ok
                    && ok.signer().equals(s.signer())) {
                return 1;
            }
            throw new IllegalStateException("a bench voucher failed to verify");
        });
        operations.put("full verify on web3j recovery: voucherDigest + signedMessageHashToKey + address", s -> {
            byte[] digest = TYPED.voucherDigest(s.channelId(), s.amount(), s.nonce());
            String address = "0x" + Keys.getAddress(Sign.signedMessageHashToKey(digest, s.web3jSignature()));
            if (address.equals(s.signer())) {
                return 1;
            }
            throw new IllegalStateException("a bench voucher failed to verify");
        });
        return operations;
    }

    /** Operations per wall-clock second (all threads together) and per CPU-second the threads were given. */
    private record Throughput(double perSecond, double perCpuSecond) {
    }

    /** Runs {@code operation} on {@code threads} threads for {@code seconds}. */
    private static Throughput measure(Operation operation, List<Sample> samples, int threads, double seconds)
            throws InterruptedException {
        ThreadMXBean cpuClock = ManagementFactory.getThreadMXBean();
        AtomicLong total = new AtomicLong();
        AtomicLong cpuNanos = new AtomicLong();
        AtomicLong checksum = new AtomicLong();
        CyclicBarrier start = new CyclicBarrier(threads);
        long durationNanos = (long) (seconds * 1e9);
        List<Thread> workers = new ArrayList<>();
        List<Throwable> failures = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            int offset = t * 17;
            Thread worker = new Thread(() -> {
                try {
                    start.await();
                    long cpuStart = cpuClock.getCurrentThreadCpuTime();
                    long deadline = System.nanoTime() + durationNanos;
                    long count = 0;
                    long bits = 0;
                    int index = offset;
                    while (System.nanoTime() < deadline) {
                        bits += operation.run(samples.get(index++ & (SAMPLES - 1)));
                        count++;
                    }
                    cpuNanos.addAndGet(cpuClock.getCurrentThreadCpuTime() - cpuStart);
                    total.addAndGet(count);
                    checksum.addAndGet(bits);
                } catch (Throwable e) {
                    synchronized (failures) {
                        failures.add(e);
                    }
                }
            });
            workers.add(worker);
            worker.start();
        }
        for (Thread worker : workers) {
            worker.join();
        }
        if (!failures.isEmpty()) {
            throw new IllegalStateException("benchmark operation failed", failures.get(0));
        }
        sink += checksum.get();
        return new Throughput(total.get() / seconds, total.get() / (cpuNanos.get() / 1e9));
    }

    private static List<Sample> samples() throws Exception {
        Random random = new Random(20261121);
        List<Sample> samples = new ArrayList<>();
        for (int i = 0; i < SAMPLES; i++) {
            byte[] key = new byte[32];
            random.nextBytes(key);
            key[0] &= 0x7f;
            key[31] |= 1;
            DigestSigner signer = new DigestSigner(key);
            byte[] channelId = new byte[32];
            random.nextBytes(channelId);
            BigInteger amount = BigInteger.valueOf(random.nextLong(1, 1_000_000_000_000L));
            BigInteger nonce = BigInteger.valueOf(i + 1);
            byte[] digest = TYPED.voucherDigest(channelId, amount, nonce);
            byte[] signature = signer.sign(digest);
            String json = typedDataJson(channelId, amount, nonce);
            if (!Arrays.equals(new StructuredDataEncoder(json).hashStructuredData(), digest)) {
                throw new IllegalStateException("StructuredDataEncoder and ChanTypedData disagree; the comparison would be meaningless");
            }
            samples.add(new Sample(channelId, amount, nonce, digest, signature,
                    new Sign.SignatureData(signature[64], Arrays.copyOfRange(signature, 0, 32),
                            Arrays.copyOfRange(signature, 32, 64)),
                    Arrays.copyOf(signature, 64), signature[64] - 27, json, signer.address()));
        }
        return samples;
    }

    private static String typedDataJson(byte[] channelId, BigInteger amount, BigInteger nonce) {
        return """
                {"types":{"EIP712Domain":[{"name":"name","type":"string"},{"name":"version","type":"string"},\
                {"name":"chainId","type":"uint256"},{"name":"verifyingContract","type":"address"}],\
                "Voucher":[{"name":"channelId","type":"bytes32"},{"name":"amount","type":"uint256"},\
                {"name":"nonce","type":"uint256"}]},"primaryType":"Voucher",\
                "domain":{"name":"ChanChannel","version":"1","chainId":137,"verifyingContract":"%s"},\
                "message":{"channelId":"%s","amount":"%s","nonce":"%s"}}""".formatted(CONTRACT, Hex.encode(channelId), amount, nonce);
    }

    private static Map<String, String> parse(String[] args) {
        Map<String, String> options = new LinkedHashMap<>();
        for (String arg : args) {
            if (!arg.startsWith("--") || !arg.contains("=")) {
                throw new IllegalArgumentException("expected --name=value, got " + arg);
            }
            options.put(arg.substring(2, arg.indexOf('=')), arg.substring(arg.indexOf('=') + 1));
        }
        return options;
    }

    private SignatureBench() {
    }
}
