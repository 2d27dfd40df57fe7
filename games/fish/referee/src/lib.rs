//! Fish's referee component: the built-in Fish of the host, as a game package's state machine that the
//! host drives through the `arena:fish/referee` world, and the rule checker (`arena:fish/rules`) its
//! players import, served by an instance of its own. The game itself is [`game`], pure and tested
//! natively; the bindings are compiled for wasm only.

pub mod game;

// The generated lowering of `state` takes many flat arguments.
#[cfg(target_arch = "wasm32")]
#[allow(clippy::too_many_arguments)]
mod bindings {
    wit_bindgen::generate!({ path: "../wit", world: "arena:fish/referee-flat", generate_all, additional_derives: [PartialEq, serde::Serialize, serde::Deserialize] });
}

#[cfg(target_arch = "wasm32")]
mod glue;
