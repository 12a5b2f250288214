//! In-process hooks: async Rust closures registered on the engine by name.

use std::collections::HashMap;
use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, RwLock};
use std::time::Duration;

use hookgate_core::{HookInput, HookResponse, HookStatus, ParsedOutput};

/// What an in-process handler fails with: the embedder's own error, whatever its type. The
/// engine shows its `Display` as the hook's failure text (once), and the failure takes the
/// hook's failure policy — never an allow.
pub type HandlerError = Box<dyn std::error::Error + Send + Sync>;

/// The future an in-process handler returns.
pub type HandlerFuture = Pin<Box<dyn Future<Output = Result<HookResponse, HandlerError>> + Send>>;

/// An in-process handler: an async closure over the event input.
pub type InProcessHandler = Arc<dyn Fn(HookInput) -> HandlerFuture + Send + Sync>;

/// What a registration did. Re-registering a name is observable, never a silent overwrite.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Registration {
    /// The name was new.
    Registered {
        /// This handler's revision.
        revision: u64,
    },
    /// The name existed; the old handler was replaced.
    Revised {
        /// The replaced handler's revision.
        previous: u64,
        /// This handler's revision.
        revision: u64,
    },
}

#[derive(Clone)]
struct Registered {
    handler: InProcessHandler,
    revision: u64,
}

/// Registered handlers, shared by an engine and the engines derived from it by overrides.
#[derive(Default)]
pub(crate) struct Handlers {
    map: RwLock<HashMap<String, Registered>>,
    next_revision: std::sync::atomic::AtomicU64,
}

impl std::fmt::Debug for Handlers {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let names: Vec<String> = self
            .map
            .read()
            .map(|m| m.keys().cloned().collect())
            .unwrap_or_default();
        f.debug_struct("Handlers")
            .field("names", &names)
            .finish_non_exhaustive()
    }
}

impl Handlers {
    pub(crate) fn register(&self, name: &str, handler: InProcessHandler) -> Registration {
        let revision = self
            .next_revision
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed)
            + 1;
        let mut map = match self.map.write() {
            Ok(map) => map,
            Err(poisoned) => poisoned.into_inner(),
        };
        match map.insert(name.to_owned(), Registered { handler, revision }) {
            Some(old) => Registration::Revised {
                previous: old.revision,
                revision,
            },
            None => Registration::Registered { revision },
        }
    }

    /// The handler named `name`. A poisoned lock is read through, as [`Handlers::register`]
    /// writes through it: the map holds whole `Arc`s, so a panic elsewhere cannot leave it
    /// half-updated, and refusing every handler after one panic would fail every hook.
    fn get(&self, name: &str) -> Option<InProcessHandler> {
        let map = match self.map.read() {
            Ok(map) => map,
            Err(poisoned) => poisoned.into_inner(),
        };
        map.get(name).map(|r| Arc::clone(&r.handler))
    }
}

/// Runs a typed future on its own task so a panic becomes a failure, under `timeout`; its
/// error becomes the failure text through `describe`, the one place it is turned into text.
pub(crate) async fn guarded<E: Send + 'static>(
    future: Pin<Box<dyn Future<Output = Result<Option<HookResponse>, E>> + Send>>,
    timeout: Duration,
    describe: impl FnOnce(E) -> String,
) -> HookStatus {
    let mut task = tokio::spawn(future);
    match tokio::time::timeout(timeout, &mut task).await {
        Err(_) => {
            task.abort();
            HookStatus::Failed(format!("timed out after {}", super::human(timeout)))
        }
        Ok(Err(join)) if join.is_panic() => HookStatus::Failed("panicked".to_owned()),
        Ok(Err(_)) => HookStatus::Failed("was cancelled".to_owned()),
        Ok(Ok(Err(error))) => HookStatus::Failed(describe(error)),
        Ok(Ok(Ok(None))) => HookStatus::Output(ParsedOutput::Empty),
        Ok(Ok(Ok(Some(response)))) => HookStatus::Output(ParsedOutput::Json(Box::new(response))),
    }
}

pub(crate) async fn run(
    handlers: &Handlers,
    name: &str,
    input: HookInput,
    timeout: Duration,
) -> HookStatus {
    let Some(handler) = handlers.get(name) else {
        return HookStatus::Failed(format!(
            "no in-process handler named `{name}` is registered"
        ));
    };
    let future = handler(input);
    guarded(
        Box::pin(async move { future.await.map(Some) }),
        timeout,
        |e| e.to_string(),
    )
    .await
}
