// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

/// @title A minimal AgentBook for local tests: the one view the service calls, `lookupHuman(address)`, with the
/// same signature as World's AgentBook, and an owner-only `register` so that tests can enrol agent wallets.
contract AgentBook {
    address public immutable owner;
    mapping(address => uint256) private humans;

    event AgentRegistered(address indexed agent, uint256 humanId);

    constructor() {
        owner = msg.sender;
    }

    /// @notice Records that `agent` is operated by the anonymous human `humanId` (0 removes it).
    function register(address agent, uint256 humanId) external {
        require(msg.sender == owner, "only owner");
        humans[agent] = humanId;
        emit AgentRegistered(agent, humanId);
    }

    /// @notice The anonymous human id behind `agent`, or 0 when it is not registered.
    function lookupHuman(address agent) external view returns (uint256) {
        return humans[agent];
    }
}
