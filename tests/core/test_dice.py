"""Dice as data: faces, exact distributions, chance outcomes, and the portable seeded RNG."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

import pytest

from muster.dice import (
    D6,
    D10,
    MASK,
    Die,
    Rng,
    bind,
    chance_outcomes,
    distribution,
    map_outcomes,
    mix64,
    mixture,
    roll,
    splitmix64,
    uniform_index,
)

# The first outputs of splitmix64 seeded with 0, as printed by the reference C implementation
# (Vigna, splitmix64.c); the same numbers every Java SplittableRandom(0)-style port gives.
SPLITMIX64_SEED_0 = [
    0xE220A8397B1DCDAF,
    0x6E789E6AA1B965F4,
    0x06C45D188009454F,
    0xF88BB8A8724C81EC,
    0x1B39896A51A8749B,
]

# Golden rolls: roll(seed, 0..9, die). They pin the whole scheme (seed and counter mixing,
# splitmix64, rejection) so that CPython and Pyodide must agree.
GOLDEN_D10 = {
    0: [5, 1, 8, 1, 8, 9, 2, 3, 4, 2],
    1: [0, 5, 7, 7, 8, 8, 9, 8, 8, 3],
    42: [1, 0, 3, 9, 1, 0, 4, 3, 5, 7],
    -1: [0, 8, 1, 9, 2, 8, 7, 0, 6, 1],
}
GOLDEN_D6 = {
    0: [2, 6, 5, 6, 3, 4, 3, 6, 5, 3],
    42: [6, 3, 4, 6, 2, 3, 5, 4, 6, 6],
}

# Chi-square critical values at p = 0.001 (degrees of freedom: faces - 1).
CHI2_999 = {5: 20.515, 9: 27.877}


class TestDie:
    def test_d10_reads_0_to_9(self):
        assert Die(10, 0) == D10
        assert D10.faces == (0, 1, 2, 3, 4, 5, 6, 7, 8, 9)

    def test_d6_reads_1_to_6(self):
        assert D6.faces == (1, 2, 3, 4, 5, 6)

    def test_any_first_face(self):
        assert Die(3, -1).faces == (-1, 0, 1)
        assert Die(1, 7).faces == (7,)

    @pytest.mark.parametrize("sides, first", [(0, 0), (-6, 1), (True, 0), (6, 1.0), ("6", 1)])
    def test_bad_dice_are_refused(self, sides, first):
        with pytest.raises(ValueError):
            Die(sides, first)

    def test_from_json(self):
        assert Die.from_json({"sides": 10, "first": 0}) == D10
        for bad in ({"sides": 10}, {"sides": 10, "first": 0, "x": 1}, [10, 0], None):
            with pytest.raises(ValueError):
                Die.from_json(bad)


class TestDistribution:
    @pytest.mark.parametrize("die", [D10, D6, Die(1, 0), Die(7, 3), Die(20, 1)])
    def test_every_face_equally_likely_and_sums_to_1(self, die):
        dist = distribution(die)
        assert list(dist) == list(die.faces)
        assert set(dist.values()) == {Fraction(1, die.sides)}
        assert sum(dist.values()) == 1

    def test_chance_outcomes_in_openspiel_form(self):
        outcomes = chance_outcomes(D10)
        assert outcomes == [(face, Fraction(1, 10)) for face in range(10)]
        assert all(isinstance(p, Fraction) for _, p in outcomes)
        assert sum(p for _, p in outcomes) == 1
        assert chance_outcomes(D6)[0] == (1, Fraction(1, 6))

    def test_map_outcomes_adds_equal_results(self):
        dist = map_outcomes(distribution(D10), lambda face: face <= 3)
        assert dist == {True: Fraction(2, 5), False: Fraction(3, 5)}

    def test_bind_two_dice(self):
        two = bind(distribution(D6), lambda a: map_outcomes(distribution(D6), lambda b: a + b))
        assert two[7] == Fraction(1, 6)
        assert two[2] == two[12] == Fraction(1, 36)
        assert sum(two.values()) == 1
        # Against brute force over every pair of faces.
        counts = Counter(a + b for a in D6.faces for b in D6.faces)
        assert two == {total: Fraction(n, 36) for total, n in counts.items()}

    def test_mixture_weights(self):
        coin = {"heads": Fraction(1)}
        dist = mixture([(Fraction(1, 4), coin), (Fraction(3, 4), distribution(Die(2, 0)))])
        assert dist == {"heads": Fraction(1, 4), 0: Fraction(3, 8), 1: Fraction(3, 8)}
        assert sum(dist.values()) == 1


class TestSplitmix64:
    def test_reference_sequence_from_seed_0(self):
        state, out = 0, []
        for _ in SPLITMIX64_SEED_0:
            state, word = splitmix64(state)
            out.append(word)
        assert out == SPLITMIX64_SEED_0

    def test_words_stay_64_bit(self):
        state = MASK
        for _ in range(100):
            state, word = splitmix64(state)
            assert 0 <= state <= MASK and 0 <= word <= MASK

    def test_mix64_is_the_finaliser(self):
        assert mix64(0) == 0
        assert mix64(0x9E3779B97F4A7C15) == SPLITMIX64_SEED_0[0]
        assert mix64(1 << 64) == mix64(0)  # masked


class TestRoll:
    @pytest.mark.parametrize("seed", sorted(GOLDEN_D10))
    def test_golden_d10(self, seed):
        assert [roll(seed, n, D10) for n in range(10)] == GOLDEN_D10[seed]

    @pytest.mark.parametrize("seed", sorted(GOLDEN_D6))
    def test_golden_d6(self, seed):
        assert [roll(seed, n, D6) for n in range(10)] == GOLDEN_D6[seed]

    def test_first_roll_of_seed_0_is_the_reference_word(self):
        assert roll(0, 0, D10) == SPLITMIX64_SEED_0[0] % 10

    def test_seed_and_counter_are_masked_to_64_bits(self):
        assert [roll((1 << 64) + 5, n, D10) for n in range(10)] == [
            roll(5, n, D10) for n in range(10)
        ]
        assert roll(-1, 3, D10) == roll(MASK, 3, D10)

    def test_faces_of_the_die(self):
        assert {roll(9, n, D6) for n in range(200)} == set(D6.faces)
        assert {roll(9, n, Die(3, -1)) for n in range(200)} == {-1, 0, 1}

    @pytest.mark.parametrize("seed, counter", [(1.5, 0), (0, "1"), (None, 0), (True, 0)])
    def test_bad_state_is_refused(self, seed, counter):
        with pytest.raises(ValueError):
            roll(seed, counter, D10)

    @pytest.mark.parametrize("die", [D10, D6])
    def test_uniform_over_many_seeds(self, die):
        """Chi-square of 10,000 first rolls of seeds 0..9999, and of 10,000 rolls of one seed."""
        for counts in (
            Counter(roll(seed, 0, die) for seed in range(10_000)),
            Counter(roll(2024, n, die) for n in range(10_000)),
        ):
            expected = 10_000 / die.sides
            chi2 = sum((counts[f] - expected) ** 2 / expected for f in die.faces)
            assert chi2 < CHI2_999[die.sides - 1], (chi2, counts)

    def test_consecutive_rolls_are_not_correlated(self):
        pairs = Counter((roll(7, n, D6), roll(7, n + 1, D6)) for n in range(7_200))
        expected = 7_200 / 36
        chi2 = sum((pairs[(a, b)] - expected) ** 2 / expected for a in D6.faces for b in D6.faces)
        assert chi2 < 66.62  # df 35, p = 0.001


class TestRejectionSampling:
    def test_every_index_exactly_once_per_full_block(self):
        """With 4-bit words, each accepted word maps to a distinct face class of equal size."""
        for n in range(1, 17):
            limit = 16 - 16 % n
            accepted = Counter(
                uniform_index(iter([w]).__next__, n, bits=4) for w in range(16) if w < limit
            )
            assert set(accepted.values()) == {limit // n}
            assert sorted(accepted) == list(range(n))

    def test_words_past_the_last_multiple_are_redrawn(self):
        for w in range(16):
            words = iter([w, 3])
            face = uniform_index(words.__next__, 10, bits=4)
            assert face == (w if w < 10 else 3)

    def test_at_64_bits(self):
        limit = (1 << 64) - (1 << 64) % 10
        assert uniform_index(iter([limit - 1]).__next__, 10) == (limit - 1) % 10
        assert uniform_index(iter([limit, MASK, 7]).__next__, 10) == 7

    def test_a_power_of_two_never_rejects(self):
        assert uniform_index(iter([MASK]).__next__, 8) == 7

    @pytest.mark.parametrize("n", [0, -1, 17])
    def test_impossible_ranges(self, n):
        with pytest.raises(ValueError):
            uniform_index(iter([0]).__next__, n, bits=4)


class TestRng:
    def test_state_is_plain_json_and_advances(self):
        rng = Rng(42)
        faces = []
        for _ in range(5):
            face, rng = rng.roll(D10)
            faces.append(face)
        assert faces == GOLDEN_D10[42][:5]
        assert rng.to_json() == {"seed": 42, "counter": 5}
        assert Rng.from_json(rng.to_json()) == rng

    def test_replay_from_json(self):
        rng = Rng.from_json({"seed": 1, "counter": 3})
        assert rng.roll(D10)[0] == GOLDEN_D10[1][3]

    @pytest.mark.parametrize(
        "bad", [{"seed": 1}, {"seed": 1, "counter": 0.5}, {"seed": "1", "counter": 0}, [1, 0]]
    )
    def test_bad_json(self, bad):
        with pytest.raises(ValueError):
            Rng.from_json(bad)
