// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

/// @title TestWallet
/// @notice A contract wallet for tests: it holds tokens and vouches, through ERC-1271, for what its
///         one owner key signs, as smart wallets (Safe, Coinbase Smart Wallet) do for a payer whose
///         address is a contract.
/// @dev TEST CONTRACT ONLY: it cannot move what it holds except through signed authorizations.
contract TestWallet {
    bytes4 private constant ERC1271_MAGIC_VALUE = 0x1626ba7e;
    bytes4 private constant REFUSED = 0xffffffff;

    address public immutable owner;

    constructor(address owner_) {
        owner = owner_;
    }

    /// @notice ERC-1271: the magic value when `signature` (r ‖ s ‖ v) is the owner's over `digest`.
    function isValidSignature(bytes32 digest, bytes calldata signature) external view returns (bytes4) {
        if (signature.length != 65) return REFUSED;
        address signer = ecrecover(digest, uint8(signature[64]), bytes32(signature[0:32]), bytes32(signature[32:64]));
        return signer != address(0) && signer == owner ? ERC1271_MAGIC_VALUE : REFUSED;
    }
}
