;; A misbehaving matching-pennies player: it panics (wasm `unreachable`) from round 2 on, in either seat.
;; Written by hand in the component text format (needs no guest toolchain): `choose` takes the round
;; (number, of, you, taken: list<u32>) flattened to five i32s and returns a bool.
(component
  (core module $main
    (memory (export "memory") 1)
    ;; a bump allocator for the `taken` list the host lowers into the player's memory
    (global $bump (mut i32) (i32.const 1024))
    (func (export "realloc") (param i32 i32 i32 i32) (result i32)
      (local $at i32)
      global.get $bump
      local.set $at
      global.get $bump
      local.get 3
      i32.add
      i32.const 7
      i32.add
      i32.const -8
      i32.and
      global.set $bump
      local.get $at)
    (func (export "choose") (param $number i32) (param $of i32) (param $you i32) (param $ptr i32) (param $len i32) (result i32)
      local.get $number
      i32.const 2
      i32.ge_u
      if
        unreachable
      end
      ;; heads
      i32.const 1))
  (core instance $i (instantiate $main))
  (type $round-def (record (field "number" u32) (field "of" u32) (field "you" u32) (field "taken" (list u32))))
  (export $round "round" (type $round-def))
  (alias core export $i "memory" (core memory $memory))
  (alias core export $i "realloc" (core func $realloc))
  (alias core export $i "choose" (core func $choose-core))
  (func $choose (param "round" $round) (result bool)
    (canon lift (core func $choose-core) (memory $memory) (realloc $realloc)))
  (export "choose" (func $choose))
)
