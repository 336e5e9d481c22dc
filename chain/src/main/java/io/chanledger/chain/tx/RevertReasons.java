package io.chanledger.chain.tx;

import io.chanledger.chain.abi.ChannelContract;
import io.chanledger.chain.rpc.RpcException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Names a revert from its data: {@code Error(string)}'s message, {@code Panic(0x..)}, or a custom error. */
public final class RevertReasons {

    private static final Pattern HEX = Pattern.compile("0x[0-9a-fA-F]{8,}");
    private static final String ERROR_STRING = "0x08c379a0";
    private static final String PANIC = "0x4e487b71";

    private final Map<String, String> customErrors;

    public RevertReasons(Map<String, String> customErrorsBySelector) {
        this.customErrors = Map.copyOf(customErrorsBySelector);
    }

    /** Knows the channel contract's custom errors. */
    public static RevertReasons channelContract() {
        return new RevertReasons(ChannelContract.ERRORS);
    }

    /** True when a failed eth_call or eth_estimateGas means "the call would revert". */
    public static boolean isRevert(RpcException e) {
        String message = e.getMessage() == null ? "" : e.getMessage().toLowerCase(Locale.ROOT);
        return e.kind() == RpcException.Kind.PERMANENT
                && (Integer.valueOf(3).equals(e.rpcCode()) || message.contains("revert"));
    }

    /** The revert's data as 0x-hex, from the error's data field, or null. */
    public static String revertData(RpcException e) {
        if (e.errorData() == null) {
            return null;
        }
        Matcher matcher = HEX.matcher(e.errorData());
        return matcher.find() ? matcher.group().toLowerCase(Locale.ROOT) : null;
    }

    public String describe(RpcException e) {
        String data = revertData(e);
        if (data != null) {
            return describe(data);
        }
        String message = e.getMessage();
        int reverted = message.indexOf("execution reverted");
        return reverted >= 0 ? message.substring(reverted) : message;
    }

    public String describe(String revertData) {
        if (revertData == null || revertData.length() < 10) {
            return "reverted without a reason";
        }
        String selector = revertData.substring(0, 10).toLowerCase(Locale.ROOT);
        String payload = revertData.substring(10);
        try {
            if (selector.equals(ERROR_STRING) && payload.length() >= 128) {
                int length = new BigInteger(payload.substring(64, 128), 16).intValueExact();
                byte[] text = hexBytes(payload.substring(128, 128 + 2 * length));
                return new String(text, StandardCharsets.UTF_8);
            }
            if (selector.equals(PANIC) && payload.length() >= 64) {
                return "Panic(0x" + new BigInteger(payload.substring(0, 64), 16).toString(16) + ")";
            }
        } catch (RuntimeException malformed) {
            return "reverted with malformed data " + revertData;
        }
        return customErrors.getOrDefault(selector, "custom error " + selector);
    }

    private static byte[] hexBytes(String hex) {
        byte[] bytes = new byte[hex.length() / 2];
        for (int i = 0; i < bytes.length; i++) {
            bytes[i] = (byte) Integer.parseInt(hex.substring(2 * i, 2 * i + 2), 16);
        }
        return bytes;
    }
}
