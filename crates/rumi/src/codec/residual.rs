//! Coding a predictor's residuals as a [`Coding`] says: zigzag, optional forward-adaptive
//! classes (`dispatchN_byTag`), then byte planes (`transpose_split`) or, for 16-bit residuals,
//! `partition`, each stream to its [`Stage`].

use openzl_sys as zl;

use super::edge::{graph_id, node, Edge, Refused, Run, Step};
use super::graph::{Coding, Stage};

/// `ZL_PARTITION_CUSTOM_PID` (codecs/zl_partition.h, not in the generated bindings).
const PARTITION_CUSTOM_PID: i32 = 121;

/// The buckets of [`Stage::Partition`] for zigzagged 16-bit residuals: 0..PARTITION_SINGLES
/// one value each, then power-of-two buckets (16, 32, ... 32768 values) whose offsets are
/// stored as raw extra bits: `[first value, bucket sizes...]`, OpenZL's custom partition list.
const PARTITION_SINGLES: u64 = 240;
static PARTITION_16: [u64; 1 + PARTITION_SINGLES as usize + 12] = {
    let mut t = [1u64; 1 + PARTITION_SINGLES as usize + 12];
    t[0] = 0;
    let mut k = 0;
    while k < 12 {
        t[1 + PARTITION_SINGLES as usize + k] = 16 << k;
        k += 1;
    }
    t
};

/// Zigzags the residuals on `e` (numeric) and codes them as `coding` says: 8- and 16-bit
/// residuals with classes are dispatched by class first (the segment sizes and tags to
/// `entropy`), each class then coded as a whole frame's residuals are ([`planes`]).
pub(super) fn code<'g>(run: &Run<'g>, e: Edge<'g>, coding: Coding) -> Step {
    let w = e.width();
    let z = run.run1(e, node(zl::ZL_StandardNodeID_zigzag))?;
    if coding.classes < 2 || coding.segment == 0 || w > 2 {
        return planes(run, z, w, coding);
    }
    // forward-adaptive classes: segments of `segment` samples tagged by mean residual
    let serial = run.run1(z, node(zl::ZL_StandardNodeID_convert_num_to_serial_le))?;
    let (sizes, tags, k) = class_tags(serial.bytes(), w, usize::from(coding.segment), usize::from(coding.classes));
    if k < 2 {
        return planes(run, run.run1(serial, num_from_serial(w))?, w, coding);
    }
    let out = run.dispatch(serial, &sizes, &tags, k)?;
    let entropy = graph_id(zl::ZL_StandardGraphID_entropy);
    run.send(out[0], entropy)?;
    run.send(out[1], entropy)?;
    for &c in &out[2..] {
        planes(run, run.run1(c, num_from_serial(w))?, w, coding)?;
    }
    Ok(())
}

/// Zigzagged residuals `z` of `w` bytes to their streams: 8-bit ones whole to the low stage;
/// 16-bit ones with [`Stage::Partition`] partitioned; the others split into byte planes, the low
/// plane to the low stage, the higher ones to the high stage.
fn planes<'g>(run: &Run<'g>, z: Edge<'g>, w: usize, coding: Coding) -> Step {
    if w == 1 {
        return stage(run, run.run1(z, node(zl::ZL_StandardNodeID_convert_num_to_serial_le))?, coding.low);
    }
    if coding.low == Stage::Partition && w == 2 {
        return partition(run, z);
    }
    let s = run.run1(z, node(zl::ZL_StandardNodeID_convert_num_to_struct_le))?;
    for (i, p) in run.run(&[s], run.transpose_split(w))?.into_iter().enumerate() {
        stage(run, p, if i == 0 { coding.low } else { coding.high })?;
    }
    Ok(())
}

/// 16-bit residuals partitioned into [`PARTITION_16`]'s buckets (to PivCo) and raw extra bits
/// (stored).
fn partition<'g>(run: &Run<'g>, z: Edge<'g>) -> Step {
    let custom = zl::ZL_CopyParam {
        paramId: PARTITION_CUSTOM_PID,
        paramPtr: PARTITION_16.as_ptr().cast(),
        paramSize: std::mem::size_of_val(&PARTITION_16),
    };
    let out = run.run_with_copy(z, node(zl::ZL_StandardNodeID_partition), &custom)?;
    if out.len() != 2 {
        return Err(Refused);
    }
    run.send(out[0], graph_id(zl::ZL_StandardGraphID_huffman_pivco))?;
    run.send(out[1], graph_id(zl::ZL_StandardGraphID_store))
}

/// The standard OpenZL graph a serial stream goes to for the stages that are one (None: a stage
/// built of nodes first: FieldLz, Sparse); what [`stage`] sends and `choose`'s `fast` trials.
pub(super) fn standard_graph(st: Stage) -> Option<zl::ZL_GraphID> {
    Some(graph_id(match st {
        Stage::Entropy => zl::ZL_StandardGraphID_entropy,
        Stage::Pivco | Stage::Partition => zl::ZL_StandardGraphID_huffman_pivco,
        Stage::Zstd => zl::ZL_StandardGraphID_zstd,
        Stage::Store => zl::ZL_StandardGraphID_store,
        Stage::Lz4 => zl::ZL_StandardGraphID_lz4,
        Stage::FieldLz | Stage::Sparse => return None,
    }))
}

/// A serial stream of residual bytes to its stage.
fn stage<'g>(run: &Run<'g>, e: Edge<'g>, st: Stage) -> Step {
    match (st, standard_graph(st)) {
        (_, Some(g)) => run.send(e, g),
        (Stage::FieldLz, None) => {
            let n = run.run1(e, node(zl::ZL_StandardNodeID_convert_serial_to_num8))?;
            run.send(n, graph_id(zl::ZL_StandardGraphID_field_lz))
        }
        (_, None) => {
            // Sparse: sparse_num pays on planes that are mostly zeros (the high planes of integer
            // residuals); a dense plane (a float's mantissa) goes to `entropy`
            let bytes = e.bytes();
            if bytes.iter().filter(|&&b| b == 0).count() * 4 < bytes.len() * 3 {
                return run.send(e, graph_id(zl::ZL_StandardGraphID_entropy));
            }
            let n = run.run1(e, node(zl::ZL_StandardNodeID_convert_serial_to_num8))?;
            for o in run.run(&[n], node(zl::ZL_StandardNodeID_sparse_num))? {
                run.send(o, graph_id(zl::ZL_StandardGraphID_compress_generic))?;
            }
            Ok(())
        }
    }
}

/// The node that views serial bytes as little-endian numbers of `w` bytes.
fn num_from_serial(w: usize) -> zl::ZL_NodeID {
    node(if w == 1 {
        zl::ZL_StandardNodeID_convert_serial_to_num8
    } else {
        zl::ZL_StandardNodeID_convert_serial_to_num_le16
    })
}

/// Forward-adaptive classes of zigzagged residuals (`bytes`: little-endian numbers of `w`
/// bytes): segments of `segment` samples (the last one shorter), each tagged with one of at most
/// `k` classes by its mean, the class bounds being the quantiles of the segment means; the
/// tags renumbered 0.. over the classes used. Returns segment sizes in bytes, tags, classes.
fn class_tags(bytes: &[u8], w: usize, segment: usize, k: usize) -> (Vec<usize>, Vec<u32>, usize) {
    let seg_bytes = segment * w;
    let means: Vec<u64> = bytes
        .chunks(seg_bytes)
        .map(|c| {
            let sum: u64 = if w == 1 {
                c.iter().map(|&b| u64::from(b)).sum()
            } else {
                c.chunks_exact(2).map(|p| u64::from(u16::from_le_bytes([p[0], p[1]]))).sum()
            };
            sum * 16 / (c.len() / w).max(1) as u64
        })
        .collect();
    let mut sorted = means.clone();
    sorted.sort_unstable();
    let mut bounds: Vec<u64> = (1..k).map(|i| sorted[i * sorted.len() / k]).collect();
    bounds.dedup();
    let raw: Vec<u32> = means.iter().map(|m| bounds.iter().filter(|&&b| *m >= b).count() as u32).collect();
    let mut used = [false; 32];
    for &t in &raw {
        used[t as usize] = true;
    }
    let mut map = [0u32; 32];
    let mut next = 0u32;
    for (t, u) in used.iter().enumerate() {
        if *u {
            map[t] = next;
            next += 1;
        }
    }
    let tags = raw.iter().map(|&t| map[t as usize]).collect();
    let sizes = bytes.chunks(seg_bytes).map(<[u8]>::len).collect();
    (sizes, tags, next as usize)
}
