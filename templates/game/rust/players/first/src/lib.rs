//! {{name}}'s first sample player: the optimal strategy (leave heaps whose xor is zero when it can,
//! else take one stone from the largest heap). Built from ../../wit alone, as a player in any language is.

wit_bindgen::generate!({ path: "../../wit", world: "arena:{{name}}/player" });

struct First;

impl Guest for First {
    fn take_turn(state: State) -> Take {
        let sum = state.heaps.iter().fold(0, |a, h| a ^ h);
        if sum != 0
            && let Some((i, h)) = state.heaps.iter().enumerate().find(|(_, h)| *h ^ sum < **h)
        {
            return Take { heap: i as u32, count: h - (h ^ sum) };
        }
        let i = state.heaps.iter().enumerate().max_by_key(|(_, h)| **h).map_or(0, |(i, _)| i);
        Take { heap: i as u32, count: 1 }
    }
}

export!(First);
