//! Rule checkers a package serves its players: every interface the referee component exports (say
//! `arena:santorini/rules`) is offered to players as an import of the same name. A player's checks run
//! in an instance of the referee of its own (created on its first check, never the running game's),
//! under the referee's limits, and the fuel a check burns is charged to the calling player, with a fee
//! for the crossing and what its arguments and answer weigh, so a check costs it in proportion to the
//! work done and spamming checks never buys host time cheaper than wasm.

use super::{types, values};
use arena_core::FaultKind;
use arena_core::Limits;
use arena_sandbox::{CHECK_CALL_FUEL, Guard, PlayerState, Sandbox};
use std::sync::Arc;
use wasmtime::component::types::{ComponentFunc, ComponentItem};
use wasmtime::component::{Component, ComponentExportIndex, Func, Instance, InstancePre, Linker, Val};
use wasmtime::{Engine, Store};

/// An interface the referee exports, with its functions and their types.
pub(super) struct Interface {
    pub name: String,
    pub funcs: Vec<(String, ComponentFunc)>,
}

/// The interfaces `referee` exports (its protocol functions are plain functions, not interfaces).
pub(super) fn exported(engine: &Engine, referee: &Component) -> Vec<Interface> {
    referee
        .component_type()
        .exports(engine)
        .filter_map(|(name, item)| match item.ty {
            ComponentItem::ComponentInstance(i) => Some(Interface {
                name: name.to_string(),
                funcs: i
                    .exports(engine)
                    .filter_map(|(f, item)| match item.ty {
                        ComponentItem::ComponentFunc(ty) => Some((f.to_string(), ty)),
                        _ => None,
                    })
                    .collect(),
            }),
            _ => None,
        })
        .collect()
}

/// One served function: where to find it in a referee instance.
struct Served {
    sandbox: Arc<Sandbox>,
    referee: InstancePre<PlayerState>,
    limits: Limits,
    func: ComponentExportIndex,
    name: String,
}

/// A player's own referee instance for its checks.
struct Checker {
    store: Store<PlayerState>,
    instance: Instance,
    /// The functions checked so far, each found once: a player may check thousands of times a
    /// decision.
    funcs: Vec<(ComponentExportIndex, Func)>,
}

/// Defines every exported interface of the referee in the players' `linker`.
pub(super) fn serve(
    linker: &mut Linker<PlayerState>,
    sandbox: &Arc<Sandbox>,
    component: &Component,
    referee: &InstancePre<PlayerState>,
    interfaces: &[Interface],
) -> Result<(), String> {
    let limits = sandbox.limits().referee();
    for iface in interfaces {
        let Some(index) = component.get_export_index(None, &iface.name) else { continue };
        let mut instance = linker.instance(&iface.name).map_err(|e| format!("{e:#}"))?;
        for (fname, _) in &iface.funcs {
            let Some(func) = component.get_export_index(Some(&index), fname) else { continue };
            let served = Arc::new(Served {
                sandbox: sandbox.clone(),
                referee: referee.clone(),
                limits,
                func,
                name: format!("{}#{fname}", iface.name),
            });
            instance
                .func_new_async(fname, move |store, _ty, params, results| {
                    let served = served.clone();
                    Box::new(async move { check(store, &served, params, results).await })
                })
                .map_err(|e| format!("{e:#}"))?;
        }
    }
    Ok(())
}

/// Runs one check for the player whose store is `store`. The check may burn at most what the player
/// has left (and at most a referee's budget); what it burns is added to the player's bill.
async fn check(
    mut store: wasmtime::StoreContextMut<'_, PlayerState>,
    served: &Served,
    params: &[Val],
    results: &mut [Val],
) -> wasmtime::Result<()> {
    let left = store.data().fuel_at_host_call(store.get_fuel()?);
    let taken = store.data_mut().extension.take().and_then(|e| e.downcast::<Checker>().ok());
    let mut checker = match taken {
        Some(c) => c,
        None => {
            let mut cstore = served.sandbox.store_with(0, &served.limits);
            let guard = Guard::arm_with(&served.limits, &mut cstore, true, "instantiate");
            let r = guard.run(served.referee.instantiate_async(&mut cstore)).await;
            let (instance, _) = match guard.finish(&mut cstore, r) {
                Ok(v) => v,
                Err(f) => return Err(host_failed(&mut store, format!("the game's rule checker failed to start: {f}"))),
            };
            Box::new(Checker { store: cstore, instance, funcs: Vec::new() })
        }
    };
    let limits = Limits { fuel: served.limits.fuel.min(left), ..served.limits };
    let func = match checker.funcs.iter().find(|(index, _)| *index == served.func) {
        Some(&(_, f)) => f,
        None => {
            let Some(f) = checker.instance.get_func(&mut checker.store, served.func) else {
                return Err(host_failed(&mut store, format!("the game's rule checker has no `{}`", served.name)));
            };
            checker.funcs.push((served.func, f));
            f
        }
    };
    let guard = Guard::arm_with(&limits, &mut checker.store, false, served.name.as_str());
    // No wall-clock backstop of its own: the player's call, which this check is part of, has one.
    let r = Ok(func.call_async(&mut checker.store, params, results).await);
    match guard.finish(&mut checker.store, r) {
        Ok(((), used)) => {
            let moved: usize = params.iter().chain(results.iter()).map(values::size).sum();
            let state = store.data_mut();
            state.charge(used.saturating_add(CHECK_CALL_FUEL));
            state.charge_args(moved);
            state.extension = Some(checker);
            Ok(())
        }
        // The player's own fuel ran out paying for the check.
        Err(f) if f.kind == FaultKind::Fuel && limits.fuel == left => {
            store.data_mut().charge(u64::MAX);
            Ok(())
        }
        // The checker's own failure (a trap, its referee's limits, a bad answer) is the game's, not
        // the player's: the game ends as a game fault, and the player's call is not judged.
        Err(f) => Err(host_failed(
            &mut store,
            format!("the game's rule checker `{}` failed on this call: {} ({})", served.name, f.reason, f.kind),
        )),
    }
}

/// Marks the player's call as failed through the game's rule checker (see
/// [`PlayerState::host_failed`]), and the error that stops the call.
fn host_failed(store: &mut wasmtime::StoreContextMut<'_, PlayerState>, why: String) -> wasmtime::Error {
    let e = wasmtime::format_err!("{why}");
    store.data_mut().host_failed = Some(why);
    e
}

/// Whether a player's import of `name` fits what the referee serves under that name.
pub(super) fn check_import(
    interfaces: &[Interface],
    name: &str,
    item: &ComponentItem,
    engine: &Engine,
) -> Result<(), String> {
    let ComponentItem::ComponentInstance(imported) = item else {
        return Err(format!("it imports `{name}` as something other than an interface"));
    };
    // An interface of types alone asks nothing of the host.
    if !imported.exports(engine).any(|(_, e)| matches!(e.ty, ComponentItem::ComponentFunc(_))) {
        return Ok(());
    }
    let Some(served) = interfaces.iter().find(|i| i.name == name) else {
        return Err(format!("it imports `{name}`, which the game does not offer"));
    };
    for (f, item) in imported.exports(engine) {
        let ComponentItem::ComponentFunc(want) = item.ty else { continue };
        let Some((_, have)) = served.funcs.iter().find(|(n, _)| n == f) else {
            return Err(format!("it imports `{name}#{f}`, which the game does not offer"));
        };
        let same = want.params().len() == have.params().len()
            && want.params().zip(have.params()).all(|((_, a), (_, b))| types::same(&a, &b))
            && want.results().len() == have.results().len()
            && want.results().zip(have.results()).all(|(a, b)| types::same(&a, &b));
        if !same {
            return Err(format!("its import `{name}#{f}` has other types than the game's"));
        }
    }
    Ok(())
}
