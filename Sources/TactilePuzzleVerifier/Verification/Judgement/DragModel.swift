import Foundation
import TactileCore
import TactilePuzzle

/// Gradient-boosted decision trees that score how likely a drag is a script's, trained on
/// real people's recorded drags and on the drags of human-like cursor libraries and naive
/// scripts (`scripts/drag-model/train.py`, the `dev` split of `shared/captcha-drags`).
///
/// A score is a probability from 0 (a person's) to 1 (a script's); a drag scoring at or above
/// ``threshold`` is refused. The threshold is set in training so that 99.5 % of people's drags
/// pass in cross-validation. Evaluation follows scikit-learn's: each tree sends a feature
/// value, rounded to single precision, left when it is at most the node's threshold, and the
/// leaves' sum (times the learning rate, plus the base) is a log-odds.
struct DragModel: Sendable {
    /// One node: a split (`feature` ≥ 0) or a leaf (`feature` −1 and its `value`).
    struct Node: Sendable {
        var feature: Int
        var threshold: Double
        var left: Int
        var right: Int
        var value: Double
    }

    /// The trees, each an array of nodes with the root first.
    var trees: [[Node]]
    /// The log-odds before any tree.
    var base: Double
    /// The learning rate each tree's leaf is scaled by.
    var rate: Double
    /// The score from which a drag is refused.
    var threshold: Double

    /// The model for a mouse's drags, trained from the recorded mouse drags (`DragModel.txt`,
    /// shipped with the module), parsed once. It reads a track as sent.
    static let trained = load("DragModel")

    /// The model for a finger's and a pen's drags (`TouchDragModel.txt`), parsed once. It reads
    /// a track at a steady frame rate (``DragFeatures/steadyFrames(_:)``): only the motion.
    static let touch = load("TouchDragModel")

    /// The model that judges drags made with `device`.
    static func judging(_ device: PointerDevice) -> DragModel {
        device == .mouse ? trained : touch
    }

    private static func load(_ name: String) -> DragModel {
        guard let url = Bundle.module.url(forResource: name, withExtension: "txt"),
            let data = try? Data(contentsOf: url)
        else {
            preconditionFailure(
                "the drag model (\(name).txt in the verifier's resource bundle) is missing: install Tactile again"
            )
        }
        guard let model = DragModel(text: String(decoding: data, as: UTF8.self)) else {
            preconditionFailure("\(name).txt does not parse: train the model again")
        }
        return model
    }

    /// Parses the text `train.py` writes; `nil` when any line is malformed or a tree refers to
    /// a node or feature that does not exist.
    init?(text: String) {
        var trees: [[Node]] = []
        var base: Double?
        var rate: Double?
        var threshold: Double?
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            let words = line.split(separator: " ")
            switch words.first {
            case "base": base = words.count == 2 ? Double(words[1]) : nil
            case "rate": rate = words.count == 2 ? Double(words[1]) : nil
            case "threshold": threshold = words.count == 2 ? Double(words[1]) : nil
            default:
                guard words.count == 6, let tree = Int(words[0]), let feature = Int(words[1]),
                    let split = Double(words[2]), let left = Int(words[3]),
                    let right = Int(words[4]), let value = Double(words[5]),
                    tree == trees.count || tree == trees.count - 1,
                    (-1..<DragFeatures.names.count).contains(feature)
                else { return nil }
                if tree == trees.count { trees.append([]) }
                trees[tree].append(
                    Node(feature: feature, threshold: split, left: left, right: right, value: value)
                )
            }
        }
        guard let base, let rate, let threshold, !trees.isEmpty else { return nil }
        for tree in trees {
            for node in tree where node.feature >= 0 {
                guard tree.indices.contains(node.left), tree.indices.contains(node.right) else {
                    return nil
                }
            }
        }
        self.trees = trees
        self.base = base
        self.rate = rate
        self.threshold = threshold
    }

    /// The probability that the features are a script's.
    func score(_ features: DragFeatures) -> Double {
        let values = features.values.map { Double(Float($0)) }
        var logOdds = base
        for tree in trees {
            var index = 0
            // Children come after their parent, so a walk ends within the tree's size.
            for _ in 0..<tree.count {
                let node = tree[index]
                if node.feature < 0 {
                    logOdds += rate * node.value
                    break
                }
                index = values[node.feature] <= node.threshold ? node.left : node.right
            }
        }
        return 1 / (1 + exp(-logOdds))
    }
}
