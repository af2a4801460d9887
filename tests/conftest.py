"""Test configuration: a reproducible Hypothesis profile for `make test` and CI, and
the tests too slow for the fast tier (`make check`).

``make test`` sets ``HYPOTHESIS_PROFILE=ci``: the examples are derived from each test
rather than drawn at random, so a run that passes passes again.  Plain ``pytest``
keeps Hypothesis's random exploration, which is how new failing seeds are found.
"""

from __future__ import annotations

import os

import pytest
from hypothesis import settings

settings.register_profile("ci", derandomize=True, print_blob=True)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))

SLOW_FILES = frozenset({"test_examples.py", "test_properties.py", "test_tournament_ray.py"})
"""Files whose every test is ``slow``: an example run as a program, the random-game
property checks, a Ray cluster."""

SLOW_TESTS = frozenset(
    {
        "test_ai.py::test_ismcts_is_legal_and_deterministic",
        "test_ai.py::test_ismcts_on_rami_with_obligations",
        "test_ai.py::test_the_hard_bot_stops_early_on_a_clear_move",
        "test_bots.py::test_full_matches_and_determinism",
        "test_bots_contract.py::test_bots_finish_every_deal_of_a_match",
        "test_bots_contract.py::test_the_deadwood_expert_is_kept_for_comparison",
        "test_bots_indian.py::test_bots_never_make_a_wrong_show[easy-indian]",
        "test_bots_indian.py::test_bots_never_make_a_wrong_show[easy-indian_pool101(deals=1)]",
        "test_bots_indian.py::test_bots_never_make_a_wrong_show[ismcts:2i-indian]",
        "test_cli.py::test_simulate_text_whole_matches[contract_big]",
        "test_diagnosis.py::test_every_kind_in_every_phase_names_the_broken_rule[contract_big]",
        "test_hints.py::test_every_reason_holds_of_its_position[contract]",
        "test_inference.py::test_signals_are_what_each_player_did_this_round[rami51]",
        "test_packaging.py::test_the_wheel_carries_the_migrations_and_runs_them",
        "test_position.py::test_round_trip_after_random_play[contract-4]",
        "test_review.py::test_racing_plays_the_searchs_samples_and_drops_only_settled_candidates",
        "test_review.py::test_review_of_a_terminal_game_record",
        "test_review.py::test_review_of_a_web_game_record",
        "test_review.py::test_same_seed_same_review_from_state_record_or_workers",
        "test_round_totals.py::test_round_rows_add_up_to_the_standings[contract]",
        "test_round_totals.py::test_round_rows_add_up_to_the_standings[contract_big]",
        "test_rules_kalooki.py::test_bots_play_kalooki_legally",
        "test_rules_space.py::test_every_accepted_rule_set_plays_to_the_end",
        "test_rules_space.py::test_first_upcard_option_in_rami51_is_playable[2]",
        "test_rules_three_decks.py::test_bots_play_three_deck_games_legally[expert-kalooki_big-6]",
        "test_serialize.py::test_every_reached_state_loads_exactly[classic]",
        "test_solver.py::test_solver_matches_brute_force[basic(decks=2, jokers=2, max_players=5)]",
        "test_solver.py::test_solver_matches_brute_force[classic(decks=3, jokers=2, "
        "set_suits=any, jokers_per_meld=1, max_players=6)]",
        "test_solver.py::test_solver_matches_brute_force[contract_big]",
        "test_solver.py::test_solver_matches_brute_force[kalooki]",
        "test_solver.py::test_solver_matches_brute_force[kalooki_big]",
        "test_solver.py::test_solver_matches_brute_force[rami51(jokers_per_meld=2)]",
        "test_solver.py::test_solver_matches_brute_force[rami51(set_suits=any)]",
        "test_solver.py::test_solver_matches_brute_force[rami51]",
        "test_solver.py::test_without_a_card_equals_a_fresh_solve[basic(decks=2, jokers=2, "
        "max_players=5)]",
        "test_solver.py::test_without_a_card_equals_a_fresh_solve[contract_big]",
        "test_solver.py::test_without_a_card_equals_a_fresh_solve[rami51]",
        "test_state_api.py::test_views_carry_the_round_s_moves_and_loads_find_the_round[gin_match]",
        "test_tui.py::test_buying_out_of_turn_has_its_own_keys",
        "test_tui.py::test_contract_deal_by_keys",
        "test_tui.py::test_contract_in_view_and_the_next_one_at_the_deal_end",
        "test_tui.py::test_each_game_keeps_its_own_save_and_resume_offers_a_choice",
        "test_tui.py::test_every_message_is_shown_whole_at_80x24",
        "test_tui.py::test_gin_status_and_illegal_knock",
        "test_tui.py::test_hand_by_suit_then_rank_then_arranged_into_melds",
        "test_tui.py::test_help_pile_hint_sort_and_instant",
        "test_tui.py::test_illegal_move_changes_nothing_and_names_the_rule",
        "test_tui.py::test_layoff_by_key_and_by_click",
        "test_tui.py::test_meld_with_a_joker_asks_which_card_it_stands_for",
        "test_tui.py::test_play_again_and_new_settings",
        "test_tui.py::test_review_button_at_the_end_of_a_round",
        "test_tui.py::test_round_and_match_end_show_hands_history_and_chart",
        "test_tui.py::test_rum500_big_with_eight_seats",
        "test_tui.py::test_save_then_resume_gives_the_same_state",
        "test_tui.py::test_swap_and_take_in_rami51",
        "test_tui.py::test_three_deck_games_by_keys",
        "test_tui.py::test_whole_gin_hand_by_keys",
        "test_tui.py::test_whole_round_by_keys",
        "test_tui_fr.py::test_every_message_is_shown_whole_at_80x24_in_french",
        "test_tui_fr.py::test_new_game_screen_in_french",
        "test_tui_indian.py::test_a_whole_deal_by_keys",
        "test_tui_indian.py::test_a_wrong_show_is_warned_before_it_is_made",
        "test_tui_indian.py::test_declare_by_keys_then_put_out_the_extra_card",
        "test_tui_indian.py::test_drop_by_key_is_asked_first",
        "test_web_api.py::test_restart_resumes_every_table_from_the_database",
        "test_web_api.py::test_timer_and_absence_play_the_turn_automatically",
        "test_web_api.py::test_whole_games_never_leak_hidden_cards",
        "test_web_capacity.py::test_a_position_with_no_legal_move_fails_the_table_instead_of"
        "_offering_nothing",
        "test_web_capacity.py::test_abandoned_tables_expire_and_are_not_loaded_again",
        "test_web_capacity.py::test_idle_tables_leave_memory_and_come_back_unchanged",
        "test_web_http.py::test_a_configured_proxy_names_the_client",
        "test_web_http.py::test_a_forged_x_forwarded_for_does_not_change_the_address_without_a"
        "_proxy",
        "test_web_http.py::test_the_name_a_server_listens_on_is_served",
        "test_web_loop.py::test_every_preset_is_allowed_at_each_of_its_table_sizes",
        "test_web_loop.py::test_extreme_rules_are_refused_naming_the_option[kalooki(decks=3, "
        "jokers=2, jokers_per_meld=2, hand_size=52, max_players=2, multiple_melds=true)"
        "-2-hand_size]",
        "test_web_loop.py::test_new_rule_sets_are_built_while_the_server_answers",
        "test_web_loop.py::test_usual_house_rules_are_allowed",
        "test_web_migrations.py::test_no_migrate_refuses_a_database_that_is_behind",
        "test_web_pool.py::test_a_hint_flood_does_not_starve_another_person_s_bot",
        "test_web_pool.py::test_a_killed_server_s_workers_exit",
        "test_web_pool.py::test_one_address_cannot_hold_every_running_review",
        "test_web_review.py::test_a_review_takes_turns_with_other_tables_bots",
        "test_web_review.py::test_review_of_a_finished_round_sends_no_card_the_player_did_not"
        "_see[rami51]",
        "test_web_review.py::test_reviews_are_limited_per_connection_and_per_server",
        "test_web_review.py::test_the_player_keeps_playing_while_a_review_is_worked_out",
    }
)
"""Tests that take a second or more each on a busy 2-core machine (``pytest
--durations``), as ``file::test`` (every parameter) or ``file::test[id]``: they are
``slow``, as if decorated with ``@pytest.mark.slow``, which a new slow test may carry
itself.  The file's name, not its folder, keys them."""


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        test = getattr(item, "originalname", item.name)
        if (
            item.path.name in SLOW_FILES
            or f"{item.path.name}::{test}" in SLOW_TESTS
            or f"{item.path.name}::{item.name}" in SLOW_TESTS
        ):
            item.add_marker(pytest.mark.slow)
