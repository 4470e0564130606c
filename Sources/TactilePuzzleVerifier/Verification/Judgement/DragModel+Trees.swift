// Written by scripts/drag-model/train.py from the dev split of shared/captcha-drags
// (real people's drags of six public sources and bots' drags; 8912 tracks:
// 4482 people's, 4430 scripts'). Do not edit: train again.

extension DragModel {
    /// The trained trees, parsed once by ``DragModel/trained``: the model's figures,
    /// its trees 30 to a file (DragModel+Trees1.swift, …), then its threshold.
    static let treesText = [
        """
        # 21 features: log_samples log_duration median_interval interval_variation regular_intervals long_intervals cross_range cross_moves cross_correlation backtrack overshoot start_speed end_speed easing_residual peak_at speed_peaks first_step largest_step still_steps lead_in settle
        # 150 trees of depth 3, learning rate 0.1
        base 0.6931471805598747
        rate 0.1
        """,
        trees1, trees2, trees3, trees4, trees5,
        "threshold 0.8939016237342795",
    ].joined(separator: "\n")
}
