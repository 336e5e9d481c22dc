// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

/// @notice ERC-1271: a contract wallet's answer to "is this signature yours for this digest?".
interface IERC1271 {
    function isValidSignature(bytes32 digest, bytes calldata signature) external view returns (bytes4);
}

/// @title TestUSDC
/// @notice A 6-decimal ERC-20 standing in for USDC on local devnets and in tests. It signs like
///         Polygon's USDC (Circle's FiatToken v2.2): the EIP-712 domain `USD Coin`, version `2`,
///         and EIP-3009 transfers with authorization (what x402's `exact` scheme pays with), with
///         FiatToken's checks in its order and its revert reasons, so code that settles
///         authorizations meets on the devnet what it meets on Polygon (the ERC-20 part keeps its
///         own custom errors).
/// @dev TEST TOKEN ONLY: anyone may mint any amount. Never deploy it where value is at stake.
///      No constructor and no immutables: its runtime code is the whole token, so the devnet places
///      it at Polygon's USDC address with anvil_setCode, and the domain separator is computed from
///      address(this) and block.chainid at each call, never cached at creation.
contract TestUSDC {
    string public constant name = "USD Coin";
    string public constant symbol = "USDC";
    uint8 public constant decimals = 6;
    /// @notice The version of the EIP-712 domain, as FiatToken v2 reports it.
    string public constant version = "2";

    bytes32 public constant TRANSFER_WITH_AUTHORIZATION_TYPEHASH = keccak256(
        "TransferWithAuthorization(address from,address to,uint256 value,uint256 validAfter,uint256 validBefore,bytes32 nonce)"
    );
    bytes32 public constant RECEIVE_WITH_AUTHORIZATION_TYPEHASH = keccak256(
        "ReceiveWithAuthorization(address from,address to,uint256 value,uint256 validAfter,uint256 validBefore,bytes32 nonce)"
    );
    bytes32 public constant CANCEL_AUTHORIZATION_TYPEHASH =
        keccak256("CancelAuthorization(address authorizer,bytes32 nonce)");

    bytes32 private constant DOMAIN_TYPEHASH =
        keccak256("EIP712Domain(string name,string version,uint256 chainId,address verifyingContract)");
    bytes32 private constant NAME_HASH = keccak256(bytes(name));
    bytes32 private constant VERSION_HASH = keccak256(bytes(version));
    /// @dev secp256k1n / 2: a larger s is the malleable twin of a valid signature.
    uint256 private constant MAX_S = 0x7FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF5D576E7357A4501DDFE92F46681B20A0;

    uint256 public totalSupply;
    mapping(address => uint256) public balanceOf;
    mapping(address => mapping(address => uint256)) public allowance;
    /// @dev authorizer => nonce => used or canceled
    mapping(address => mapping(bytes32 => bool)) private usedAuthorizations;

    event Transfer(address indexed from, address indexed to, uint256 value);
    event Approval(address indexed owner, address indexed spender, uint256 value);
    event AuthorizationUsed(address indexed authorizer, bytes32 indexed nonce);
    event AuthorizationCanceled(address indexed authorizer, bytes32 indexed nonce);

    error InsufficientBalance();
    error InsufficientAllowance();
    error InvalidReceiver();

    function mint(address to, uint256 amount) external {
        if (to == address(0)) revert InvalidReceiver();
        totalSupply += amount;
        balanceOf[to] += amount;
        emit Transfer(address(0), to, amount);
    }

    function approve(address spender, uint256 amount) external returns (bool) {
        allowance[msg.sender][spender] = amount;
        emit Approval(msg.sender, spender, amount);
        return true;
    }

    function transfer(address to, uint256 amount) external returns (bool) {
        _transfer(msg.sender, to, amount);
        return true;
    }

    /// @dev An allowance of type(uint256).max is treated as unlimited and never decreases.
    function transferFrom(address from, address to, uint256 amount) external returns (bool) {
        uint256 allowed = allowance[from][msg.sender];
        if (allowed != type(uint256).max) {
            if (allowed < amount) revert InsufficientAllowance();
            allowance[from][msg.sender] = allowed - amount;
        }
        _transfer(from, to, amount);
        return true;
    }

    // EIP-3009

    /// @notice The EIP-712 domain separator of this token where it sits, on the chain it runs on.
    function DOMAIN_SEPARATOR() public view returns (bytes32) {
        return keccak256(abi.encode(DOMAIN_TYPEHASH, NAME_HASH, VERSION_HASH, block.chainid, address(this)));
    }

    /// @notice Whether `authorizer`'s `nonce` has been used or canceled.
    function authorizationState(address authorizer, bytes32 nonce) external view returns (bool) {
        return usedAuthorizations[authorizer][nonce];
    }

    /// @notice Moves `value` from `from` to `to` on `from`'s signed authorization; anyone may send it.
    function transferWithAuthorization(
        address from, address to, uint256 value, uint256 validAfter, uint256 validBefore, bytes32 nonce,
        uint8 v, bytes32 r, bytes32 s
    ) external {
        _useAuthorization(TRANSFER_WITH_AUTHORIZATION_TYPEHASH, from, to, value, validAfter, validBefore, nonce,
            abi.encodePacked(r, s, v));
    }

    /// @notice As above with the signature as bytes: r ‖ s ‖ v from a key, or whatever a contract
    ///         wallet `from` accepts through ERC-1271.
    function transferWithAuthorization(
        address from, address to, uint256 value, uint256 validAfter, uint256 validBefore, bytes32 nonce,
        bytes memory signature
    ) external {
        _useAuthorization(TRANSFER_WITH_AUTHORIZATION_TYPEHASH, from, to, value, validAfter, validBefore, nonce,
            signature);
    }

    /// @notice As transferWithAuthorization, but only `to` may send it, so nobody who sees the
    ///         authorization in the mempool can settle it ahead of the payee's own transaction.
    function receiveWithAuthorization(
        address from, address to, uint256 value, uint256 validAfter, uint256 validBefore, bytes32 nonce,
        uint8 v, bytes32 r, bytes32 s
    ) external {
        require(to == msg.sender, "FiatTokenV2: caller must be the payee");
        _useAuthorization(RECEIVE_WITH_AUTHORIZATION_TYPEHASH, from, to, value, validAfter, validBefore, nonce,
            abi.encodePacked(r, s, v));
    }

    function receiveWithAuthorization(
        address from, address to, uint256 value, uint256 validAfter, uint256 validBefore, bytes32 nonce,
        bytes memory signature
    ) external {
        require(to == msg.sender, "FiatTokenV2: caller must be the payee");
        _useAuthorization(RECEIVE_WITH_AUTHORIZATION_TYPEHASH, from, to, value, validAfter, validBefore, nonce,
            signature);
    }

    /// @notice Spends `authorizer`'s unused `nonce` without a transfer, on its signed request.
    function cancelAuthorization(address authorizer, bytes32 nonce, uint8 v, bytes32 r, bytes32 s) external {
        _cancelAuthorization(authorizer, nonce, abi.encodePacked(r, s, v));
    }

    function cancelAuthorization(address authorizer, bytes32 nonce, bytes memory signature) external {
        _cancelAuthorization(authorizer, nonce, signature);
    }

    /// @dev FiatToken's order: the time window (validAfter < now < validBefore, both strict), the
    ///      nonce, the signature; then the nonce is spent before the tokens move.
    function _useAuthorization(
        bytes32 typehash, address from, address to, uint256 value, uint256 validAfter, uint256 validBefore,
        bytes32 nonce, bytes memory signature
    ) private {
        require(block.timestamp > validAfter, "FiatTokenV2: authorization is not yet valid");
        require(block.timestamp < validBefore, "FiatTokenV2: authorization is expired");
        _requireUnused(from, nonce);
        _requireSignedBy(from, keccak256(abi.encode(typehash, from, to, value, validAfter, validBefore, nonce)),
            signature);
        usedAuthorizations[from][nonce] = true;
        emit AuthorizationUsed(from, nonce);
        _transfer(from, to, value);
    }

    function _cancelAuthorization(address authorizer, bytes32 nonce, bytes memory signature) private {
        _requireUnused(authorizer, nonce);
        _requireSignedBy(authorizer, keccak256(abi.encode(CANCEL_AUTHORIZATION_TYPEHASH, authorizer, nonce)),
            signature);
        usedAuthorizations[authorizer][nonce] = true;
        emit AuthorizationCanceled(authorizer, nonce);
    }

    function _requireUnused(address authorizer, bytes32 nonce) private view {
        require(!usedAuthorizations[authorizer][nonce], "FiatTokenV2: authorization is used or canceled");
    }

    /// @dev An address with code is a contract wallet and answers for itself (ERC-1271); any other
    ///      signer must have made the signature with its key.
    function _requireSignedBy(address signer, bytes32 structHash, bytes memory signature) private view {
        bytes32 digest = keccak256(abi.encodePacked("\x19\x01", DOMAIN_SEPARATOR(), structHash));
        bool valid = signer.code.length == 0
            ? _recover(digest, signature) == signer
            : _walletAccepts(signer, digest, signature);
        require(valid, "FiatTokenV2: invalid signature");
    }

    /// @dev 65 bytes r ‖ s ‖ v with s in the lower half of the curve order and v 27 or 28: one
    ///      valid encoding per signature. A malformed signature reverts, as FiatToken's ECRecover does.
    function _recover(bytes32 digest, bytes memory signature) private pure returns (address signer) {
        require(signature.length == 65, "ECRecover: invalid signature length");
        bytes32 r;
        bytes32 s;
        uint8 v;
        assembly ("memory-safe") {
            r := mload(add(signature, 0x20))
            s := mload(add(signature, 0x40))
            v := byte(0, mload(add(signature, 0x60)))
        }
        require(uint256(s) <= MAX_S, "ECRecover: invalid signature 's' value");
        require(v == 27 || v == 28, "ECRecover: invalid signature 'v' value");
        signer = ecrecover(digest, v, r, s);
        require(signer != address(0), "ECRecover: invalid signature");
    }

    /// @dev Accepted only on the exact ERC-1271 magic value; a revert or any other answer is a refusal.
    function _walletAccepts(address wallet, bytes32 digest, bytes memory signature) private view returns (bool) {
        (bool ok, bytes memory answer) =
            wallet.staticcall(abi.encodeCall(IERC1271.isValidSignature, (digest, signature)));
        return ok && answer.length >= 32 && abi.decode(answer, (bytes32)) == bytes32(IERC1271.isValidSignature.selector);
    }

    function _transfer(address from, address to, uint256 amount) private {
        if (to == address(0)) revert InvalidReceiver();
        uint256 balance = balanceOf[from];
        if (balance < amount) revert InsufficientBalance();
        balanceOf[from] = balance - amount;
        balanceOf[to] += amount;
        emit Transfer(from, to, amount);
    }
}
