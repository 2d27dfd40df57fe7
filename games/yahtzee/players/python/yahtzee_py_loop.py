# A misbehaving Yahtzee sample player in Python: plays like yahtzee_py until turn 3, then loops forever
# inside `keep`, so Arena must ban it with kind `fuel`.
import yahtzee_py


class WitWorld(yahtzee_py.WitWorld):
    def keep(self, state):
        if state.turn == 3:
            while True:
                pass
        return super().keep(state)
