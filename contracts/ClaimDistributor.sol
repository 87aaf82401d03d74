// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";
import {Address} from "@openzeppelin/contracts/utils/Address.sol";
import {MerkleProof} from "@openzeppelin/contracts/utils/cryptography/MerkleProof.sol";

/**
 * The claim rail's distributor: one contract, many distribution batches. Each batch is registered by the owner
 * with the Merkle root the service published (OpenZeppelin StandardMerkleTree, leaves [address, uint256],
 * double-hashed), a claim deadline, and its funds (native currency, sent with the registration). A recipient
 * claims once per batch with the proof from the service's API; the owner can freeze and unfreeze a batch, and
 * after the deadline sweep what was not claimed back to the pool, as Uniswap's MerkleDistributorWithDeadline.
 * Ownership, the proof check and the transfers are OpenZeppelin's audited Ownable, MerkleProof and Address.
 */
contract ClaimDistributor is Ownable {
    struct Batch {
        bytes32 root;
        uint64 deadline;
        bool frozen;
        uint256 remaining;
    }

    mapping(bytes32 => Batch) public batches;
    mapping(bytes32 => mapping(address => bool)) public claimed;

    event BatchRegistered(bytes32 indexed batchId, bytes32 root, uint64 deadline, uint256 funds);
    event Claimed(bytes32 indexed batchId, address indexed account, uint256 amount);
    event BatchFrozen(bytes32 indexed batchId);
    event BatchUnfrozen(bytes32 indexed batchId);
    event Swept(bytes32 indexed batchId, address indexed to, uint256 amount);

    error UnknownBatch();
    error BatchExists();
    error AlreadyClaimed();
    error InvalidProof();
    error Frozen();
    error NotFrozen();
    error ClaimWindowClosed();
    error ClaimWindowOpen();

    constructor() Ownable(msg.sender) {}

    function registerBatch(bytes32 batchId, bytes32 root, uint64 deadline) external payable onlyOwner {
        if (batches[batchId].root != bytes32(0)) revert BatchExists();
        batches[batchId] = Batch(root, deadline, false, msg.value);
        emit BatchRegistered(batchId, root, deadline, msg.value);
    }

    function claim(bytes32 batchId, address account, uint256 amount, bytes32[] calldata proof) external {
        Batch storage b = batches[batchId];
        if (b.root == bytes32(0)) revert UnknownBatch();
        if (b.frozen) revert Frozen();
        if (block.timestamp > b.deadline) revert ClaimWindowClosed();
        if (claimed[batchId][account]) revert AlreadyClaimed();
        bytes32 leaf = keccak256(bytes.concat(keccak256(abi.encode(account, amount))));
        if (!MerkleProof.verifyCalldata(proof, b.root, leaf)) revert InvalidProof();
        claimed[batchId][account] = true;
        b.remaining -= amount;
        Address.sendValue(payable(account), amount);
        emit Claimed(batchId, account, amount);
    }

    function freeze(bytes32 batchId) external onlyOwner {
        Batch storage b = batches[batchId];
        if (b.root == bytes32(0)) revert UnknownBatch();
        if (b.frozen) revert Frozen();
        b.frozen = true;
        emit BatchFrozen(batchId);
    }

    function unfreeze(bytes32 batchId) external onlyOwner {
        Batch storage b = batches[batchId];
        if (!b.frozen) revert NotFrozen();
        b.frozen = false;
        emit BatchUnfrozen(batchId);
    }

    /** After the deadline the unclaimed funds go back to the pool (`to`), as MerkleDistributorWithDeadline. */
    function sweep(bytes32 batchId, address payable to) external onlyOwner {
        Batch storage b = batches[batchId];
        if (b.root == bytes32(0)) revert UnknownBatch();
        if (block.timestamp <= b.deadline) revert ClaimWindowOpen();
        uint256 amount = b.remaining;
        b.remaining = 0;
        Address.sendValue(to, amount);
        emit Swept(batchId, to, amount);
    }
}
