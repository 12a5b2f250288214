//! Transactions on a blockchain's main network (`chain.mainnet_transaction`): `cast send …
//! --rpc-url https://mainnet.infura.io/…`, `forge script … --broadcast --rpc-url mainnet`,
//! `solana transfer … --url mainnet-beta`, `npx hardhat run deploy.ts --network mainnet`,
//! `truffle migrate --network mainnet`, `brownie run deploy --network mainnet`.
//!
//! Why a class of its own: a signed transaction on a main network moves real funds or
//! deploys a contract that holds them, and nothing takes it back — no backup, no rollback,
//! no support desk. The same commands against a local node (`anvil`, `hardhat node`, the
//! tools' defaults) or a test network (Sepolia, Holesky, devnet) are ordinary development.
//!
//! Invariant: only a network the line names as a main one counts — by an alias (`mainnet`,
//! `mainnet-beta`, Solana's `m`) or an RPC URL whose name says main network
//! (`eth-mainnet.g.alchemy.com`), never one naming a test network too. A network known only
//! at run time (`--rpc-url $RPC`) or the tool's configured default is not guessed at.

use crate::model::Verdict;
use crate::taxonomy::ids;
use crate::walk::Word;

/// Whether a network name or RPC URL names a main network: one of its parts (split at `.`,
/// `-`, `_`, `/`, `:`) is a main-network word and none a test or local one.
fn names_mainnet(value: &str) -> bool {
    let lower = value.to_ascii_lowercase();
    let parts = || lower.split(['.', '-', '_', '/', ':', '?', '=']);
    let main = parts().any(|p| {
        matches!(
            p,
            "mainnet" | "homestead" | "ethereum" | "polygon" | "arbitrum" | "optimism" | "bsc"
        )
    });
    let test = parts().any(|p| {
        matches!(
            p,
            "sepolia"
                | "goerli"
                | "holesky"
                | "hoodi"
                | "amoy"
                | "mumbai"
                | "fuji"
                | "testnet"
                | "devnet"
                | "localnet"
                | "localhost"
                | "127"
                | "local"
                | "anvil"
                | "hardhat"
                | "ganache"
                | "fork"
        )
    });
    main && !test
}

/// The value of an option spelled `--opt=v` or `--opt v`.
fn value<'w>(words: &'w [Word], names: &[&str]) -> Option<&'w Word> {
    words.iter().enumerate().find_map(|(i, w)| {
        if let Some((k, _)) = w.text.split_once('=')
            && names.contains(&k)
        {
            return Some(w);
        }
        names
            .contains(&w.text.as_str())
            .then(|| words.get(i + 1))
            .flatten()
    })
}

/// The network an option names, as far as the line spells it: a word with an expansion keeps
/// only its literal start (`https://mainnet.infura.io/v3/$KEY` names its host; `$RPC` says
/// nothing and is not guessed at).
fn network<'w>(words: &'w [Word], names: &[&str]) -> Option<&'w str> {
    let w = value(words, names)?;
    let text = w
        .text
        .split_once('=')
        .filter(|(k, _)| names.contains(k))
        .map_or(w.text.as_str(), |(_, v)| v);
    let known = if w.exact {
        text
    } else {
        text.split('$').next().unwrap_or("")
    };
    (!known.is_empty()).then_some(known)
}

/// The tools this module judges; `argdanger` calls [`mainnet_transaction`] only for them.
pub(crate) fn judges(name: &str) -> bool {
    matches!(
        name,
        "cast" | "forge" | "solana" | "hardhat" | "truffle" | "brownie"
    )
}

/// `chain.mainnet_transaction` when `name words` signs and sends a transaction (a transfer,
/// a contract call or deployment, a broadcast script) to a main network the line names.
pub(crate) fn mainnet_transaction(name: &str, words: &[Word]) -> Option<Verdict> {
    let first = words
        .iter()
        .find(|w| !w.text.starts_with('-'))
        .map(|w| w.text.as_str());
    let has = |f: &str| words.iter().any(|w| w.text == f);
    let sends = match name {
        "cast" => matches!(first, Some("send" | "publish")),
        // `forge script` sends only with `--broadcast`; `forge create` deploys unless it is a
        // dry run.
        "forge" => match first {
            Some("script") => has("--broadcast"),
            Some("create") => !has("--dry-run"),
            _ => false,
        },
        "solana" => {
            let subs: Vec<&str> = words
                .iter()
                .map(|w| w.text.as_str())
                .filter(|t| !t.starts_with('-'))
                .take(2)
                .collect();
            matches!(
                subs.as_slice(),
                [
                    "transfer" | "deploy" | "pay" | "withdraw-stake" | "close-vote-account",
                    ..
                ] | [
                    "program",
                    "deploy" | "close" | "upgrade" | "set-upgrade-authority"
                ]
            )
        }
        "hardhat" => matches!(first, Some("run" | "deploy" | "ignition")),
        "truffle" => matches!(first, Some("migrate" | "deploy" | "exec")),
        "brownie" => matches!(first, Some("run")),
        _ => false,
    };
    if !sends {
        return None;
    }
    let target = match name {
        "cast" | "forge" => network(words, &["--rpc-url", "-r", "--fork-url", "--chain"]),
        "solana" => {
            network(words, &["--url", "-u"]).map(|u| if u == "m" { "mainnet-beta" } else { u })
        }
        _ => network(words, &["--network"]),
    }?;
    names_mainnet(target).then(|| ids::CHAIN_MAINNET_TRANSACTION.verdict())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn judged(line: &str) -> bool {
        let words: Vec<&str> = line.split_whitespace().collect();
        let (name, rest) = words.split_first().expect("a command");
        let rest: Vec<Word> = rest.iter().map(|t| Word::lit(*t)).collect();
        mainnet_transaction(name, &rest).is_some()
    }

    #[test]
    fn a_transaction_sent_to_a_named_main_network_is_judged() {
        for line in [
            "cast send 0xabc --value 10ether --private-key K --rpc-url https://mainnet.infura.io/v3/KEY",
            "cast send 0xabc transfer(address,uint256) 0xdef 1 --rpc-url=https://eth-mainnet.g.alchemy.com/v2/K",
            "forge script script/Deploy.s.sol:Deploy --rpc-url mainnet --broadcast --verify",
            "forge create src/Token.sol:Token --rpc-url https://polygon-mainnet.infura.io/v3/K",
            "solana transfer 9xQe 50 --allow-unfunded-recipient --url mainnet-beta",
            "solana program deploy target/deploy/x.so -u m",
            "hardhat run scripts/upgrade.ts --network mainnet",
            "truffle migrate --network mainnet",
            "brownie run scripts/deploy.py --network mainnet",
        ] {
            assert!(judged(line), "{line}");
        }
    }

    #[test]
    fn local_test_networks_reads_and_unknown_networks_are_not() {
        for line in [
            "cast send 0xabc --value 1ether --rpc-url http://127.0.0.1:8545",
            "cast send 0xabc --value 1ether",
            "cast call 0xabc balanceOf(address) 0xdef --rpc-url https://mainnet.infura.io/v3/K",
            "cast send 0xabc --rpc-url https://eth-sepolia.g.alchemy.com/v2/K",
            "cast send 0xabc --rpc-url $RPC_URL",
            "forge script script/Deploy.s.sol --rpc-url mainnet",
            "forge script script/Deploy.s.sol --rpc-url sepolia --broadcast",
            "forge test --fork-url https://mainnet.infura.io/v3/K",
            "solana transfer 9xQe 1 --url devnet",
            "solana balance --url mainnet-beta",
            "hardhat run scripts/deploy.ts --network localhost",
            "hardhat test --network mainnet",
            "truffle migrate --network development",
        ] {
            assert!(!judged(line), "{line}");
        }
    }
}
