// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

interface IERC20Minimal {
    function transfer(address to, uint256 amount) external returns (bool);
    function transferFrom(address from, address to, uint256 amount) external returns (bool);
}

/// @title ChanChannel
/// @notice Unidirectional USDC payment channels: a consumer locks a deposit for a provider, signs
/// cumulative EIP-712 vouchers off-chain, and the provider claims the highest one on-chain.
/// A protocol fee (basis points of each payout) goes to the fee recipient. The owner can change
/// the fee and the token, and each change is logged (FeeUpdated, USDCUpdated) as the deployed
/// contract logs it, so the ledger is tested against a contract whose settings move.
contract ChanChannel {
    struct Channel {
        address consumer;
        address provider;
        uint256 deposit;
        uint256 claimed;
        uint256 expiry;
    }

    bytes32 private constant DOMAIN_TYPEHASH =
        keccak256("EIP712Domain(string name,string version,uint256 chainId,address verifyingContract)");
    bytes32 private constant VOUCHER_TYPEHASH = keccak256("Voucher(bytes32 channelId,uint256 amount,uint256 nonce)");
    bytes32 private constant CLOSE_AUTHORIZATION_TYPEHASH =
        keccak256("CloseAuthorization(bytes32 channelId,uint256 finalAmount)");

    /// @dev secp256k1n / 2: signatures with a larger s are the malleated twins of low-s ones.
    uint256 private constant MAX_S = 0x7FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF5D576E7357A4501DDFE92F46681B20A0;
    uint256 private constant BPS_DENOMINATOR = 10_000;
    /// @notice Upper bound for the protocol fee: 10 %.
    uint256 public constant MAX_FEE_BPS = 1_000;

    /// @dev Fixed at deployment: vouchers signed for this contract stay valid for its lifetime.
    bytes32 private immutable DOMAIN_SEPARATOR_;
    IERC20Minimal public usdc;

    address public owner;
    address public feeRecipient;
    uint256 public feeBps;
    mapping(address consumer => uint256) public nonces;
    mapping(bytes32 channelId => Channel) private channels;

    event ChannelOpened(
        bytes32 indexed channelId, address indexed consumer, address indexed provider, uint256 deposit, uint256 expiry
    );
    /// @param amount the incremental gross payout of this claim, before the fee
    event ChannelClaimed(bytes32 indexed channelId, address indexed provider, uint256 amount);
    event ChannelClosed(bytes32 indexed channelId, address indexed consumer, uint256 refund);
    event FeePaid(bytes32 indexed channelId, address indexed recipient, uint256 amount);
    event FeeUpdated(address indexed feeRecipient, uint256 feeBps);
    event USDCUpdated(address indexed oldUsdc, address indexed newUsdc);
    event OwnershipRenounced(address indexed previousOwner);

    error InvalidAmount();
    error InvalidAddress();
    error ChannelNotFound();
    error InvalidSignature();
    error NotProvider();
    error NotConsumer();
    error NotExpired();
    error NotOwner();
    error FeeTooHigh();
    error TransferFailed();

    modifier onlyOwner() {
        if (msg.sender != owner) revert NotOwner();
        _;
    }

    constructor(address usdc_, address feeRecipient_, uint256 feeBps_) {
        if (usdc_ == address(0)) revert InvalidAddress();
        usdc = IERC20Minimal(usdc_);
        owner = msg.sender;
        DOMAIN_SEPARATOR_ = keccak256(
            abi.encode(DOMAIN_TYPEHASH, keccak256("ChanChannel"), keccak256("1"), block.chainid, address(this))
        );
        _setFee(feeRecipient_, feeBps_);
    }

    /// @notice Locks `amount` USDC (approved beforehand) for `provider` until `duration` seconds from now.
    function open(address provider, uint256 amount, uint256 duration) external returns (bytes32 channelId) {
        if (amount == 0) revert InvalidAmount();
        if (provider == address(0)) revert InvalidAddress();

        channelId = keccak256(abi.encodePacked(msg.sender, provider, block.timestamp, nonces[msg.sender]++));
        uint256 expiry = block.timestamp + duration;
        channels[channelId] = Channel(msg.sender, provider, amount, 0, expiry);
        emit ChannelOpened(channelId, msg.sender, provider, amount, expiry);

        _pull(msg.sender, amount);
    }

    /// @notice Pays the provider the part of a consumer-signed cumulative voucher not yet claimed.
    /// @dev The nonce is part of the signed message but deliberately not checked here: the
    /// cumulative amount alone orders vouchers, and it must exceed what was claimed.
    function claim(bytes32 channelId, uint256 amount, uint256 nonce, bytes calldata signature) external {
        Channel storage channel = _existing(channelId);
        if (msg.sender != channel.provider) revert NotProvider();
        uint256 alreadyClaimed = channel.claimed;
        if (amount > channel.deposit || amount <= alreadyClaimed) revert InvalidAmount();
        bytes32 structHash = keccak256(abi.encode(VOUCHER_TYPEHASH, channelId, amount, nonce));
        _requireSigner(structHash, signature, channel.consumer);

        channel.claimed = amount;
        address provider = channel.provider;
        (uint256 fee, address recipient) = _payout(channelId, provider, amount - alreadyClaimed);
        _push(recipient, fee);
        _push(provider, amount - alreadyClaimed - fee);
    }

    /// @notice After expiry the consumer takes back what the provider has not claimed.
    function close(bytes32 channelId) external {
        Channel storage channel = _existing(channelId);
        if (msg.sender != channel.consumer) revert NotConsumer();
        if (block.timestamp < channel.expiry) revert NotExpired();

        uint256 refund = channel.deposit - channel.claimed;
        delete channels[channelId];
        emit ChannelClosed(channelId, msg.sender, refund);

        _push(msg.sender, refund);
    }

    /// @notice Closes at any time with the provider's signed agreement on the final amount.
    function cooperativeClose(bytes32 channelId, uint256 finalAmount, bytes calldata providerSignature) external {
        Channel storage channel = _existing(channelId);
        if (msg.sender != channel.consumer) revert NotConsumer();
        uint256 alreadyClaimed = channel.claimed;
        uint256 deposit = channel.deposit;
        if (finalAmount < alreadyClaimed || finalAmount > deposit) revert InvalidAmount();
        bytes32 structHash = keccak256(abi.encode(CLOSE_AUTHORIZATION_TYPEHASH, channelId, finalAmount));
        _requireSigner(structHash, providerSignature, channel.provider);

        address provider = channel.provider;
        uint256 payout = finalAmount - alreadyClaimed;
        uint256 refund = deposit - finalAmount;
        delete channels[channelId];
        uint256 fee;
        address recipient;
        if (payout > 0) {
            (fee, recipient) = _payout(channelId, provider, payout);
        }
        emit ChannelClosed(channelId, msg.sender, refund);

        _push(recipient, fee);
        _push(provider, payout - fee);
        _push(msg.sender, refund);
    }

    function getChannel(bytes32 channelId)
        external
        view
        returns (address consumer, address provider, uint256 deposit, uint256 claimed, uint256 expiry)
    {
        Channel storage channel = channels[channelId];
        return (channel.consumer, channel.provider, channel.deposit, channel.claimed, channel.expiry);
    }

    /// @notice What is left in the channel: deposit minus claimed (0 for an unknown channel).
    function getBalance(bytes32 channelId) external view returns (uint256) {
        Channel storage channel = channels[channelId];
        return channel.deposit - channel.claimed;
    }

    function domainSeparator() external view returns (bytes32) {
        return DOMAIN_SEPARATOR_;
    }

    function setFee(address recipient, uint256 bps) external onlyOwner {
        _setFee(recipient, bps);
    }

    /// @notice Moves the contract to another token: later opens pull it and later payouts pay it.
    function setUsdc(address newUsdc) external onlyOwner {
        if (newUsdc == address(0)) revert InvalidAddress();
        emit USDCUpdated(address(usdc), newUsdc);
        usdc = IERC20Minimal(newUsdc);
    }

    /// @notice Freezes the fee and token settings for good.
    function renounceOwnership() external onlyOwner {
        emit OwnershipRenounced(owner);
        owner = address(0);
    }

    function _setFee(address recipient, uint256 bps) private {
        if (bps > MAX_FEE_BPS) revert FeeTooHigh();
        if (recipient == address(0) && bps > 0) revert InvalidAddress();
        feeRecipient = recipient;
        feeBps = bps;
        emit FeeUpdated(recipient, bps);
    }

    function _existing(bytes32 channelId) private view returns (Channel storage channel) {
        channel = channels[channelId];
        if (channel.consumer == address(0)) revert ChannelNotFound();
    }

    /// @dev Emits FeePaid (when there is a fee) then ChannelClaimed; the caller transfers.
    function _payout(bytes32 channelId, address provider, uint256 payout)
        private
        returns (uint256 fee, address recipient)
    {
        fee = payout * feeBps / BPS_DENOMINATOR;
        recipient = feeRecipient;
        if (fee > 0) emit FeePaid(channelId, recipient, fee);
        emit ChannelClaimed(channelId, provider, payout);
    }

    function _requireSigner(bytes32 structHash, bytes calldata signature, address expected) private view {
        bytes32 digest = keccak256(abi.encodePacked(hex"1901", DOMAIN_SEPARATOR_, structHash));
        address signer = _recover(digest, signature);
        if (signer == address(0) || signer != expected) revert InvalidSignature();
    }

    /// @dev OpenZeppelin's tryRecover rule on 65-byte signatures, except that v of 0 or 1 is read
    /// as 27 or 28. Returns the zero address for anything it does not accept.
    function _recover(bytes32 digest, bytes calldata signature) private pure returns (address) {
        if (signature.length != 65) return address(0);
        bytes32 r;
        bytes32 s;
        uint8 v;
        assembly ("memory-safe") {
            r := calldataload(signature.offset)
            s := calldataload(add(signature.offset, 32))
            v := byte(0, calldataload(add(signature.offset, 64)))
        }
        if (uint256(s) > MAX_S) return address(0);
        if (v < 27) v += 27;
        if (v != 27 && v != 28) return address(0);
        return ecrecover(digest, v, r, s);
    }

    function _pull(address from, uint256 amount) private {
        _call(abi.encodeCall(IERC20Minimal.transferFrom, (from, address(this), amount)));
    }

    function _push(address to, uint256 amount) private {
        if (amount == 0) return;
        _call(abi.encodeCall(IERC20Minimal.transfer, (to, amount)));
    }

    /// @dev Accepts tokens that return true and tokens that return nothing; anything else fails.
    function _call(bytes memory data) private {
        (bool ok, bytes memory result) = address(usdc).call(data);
        if (!ok || (result.length == 0 ? address(usdc).code.length == 0 : !abi.decode(result, (bool)))) {
            revert TransferFailed();
        }
    }
}
