//! The URL fragment contract:
//!
//! - `#scenario=<base64url of the UTF-8 scenario JSON>` loads a scenario in the engine's format;
//! - `#z=<base64url of raw-DEFLATE JSON>` is the same, compressed (share links use this form);
//! - `&step=<n|end>` places the playhead;
//! - `&cmp=<base64url of raw-DEFLATE JSON>`: compare mode's second configuration, a scenario (an
//!   empty input: the same input as the first).
//! - `&local=1`: the address bar's form of a fragment too long for it ([`address_bar_form`]): the
//!   scenario is left out, and is the autosave's of the browser that wrote it.
//!
//! Parsing never panics: every problem is a [`FragmentError`] the banner shows as text (never as
//! HTML). Base64url is accepted with or without `=` padding.

use std::fmt;
use std::rc::{Rc, Weak};

use base64::Engine as _;
use base64::engine::{DecodePaddingMode, GeneralPurpose, GeneralPurposeConfig};

use crate::engine::Scenario;
use crate::engine::scenario::limits::MAX_SCENARIO_BYTES;

/// Where the playhead goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StepParam {
    /// A step count (clamped to the run's steps).
    At(usize),
    /// `end`: after the end of input.
    End,
}

/// What a fragment asks for.
#[derive(Clone, Debug, PartialEq)]
pub struct Fragment {
    /// `None`: the fragment names no scenario (keep or load the default).
    pub scenario: Option<Scenario>,
    pub step: Option<StepParam>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FragmentError(pub String);

impl fmt::Display for FragmentError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

const URL_SAFE_LENIENT: GeneralPurpose = GeneralPurpose::new(
    &base64::alphabet::URL_SAFE,
    GeneralPurposeConfig::new().with_encode_padding(false).with_decode_padding_mode(DecodePaddingMode::Indifferent),
);

/// Longest fragment value accepted (a compressed scenario at the loader's limit fits easily).
pub const MAX_FRAGMENT_CHARS: usize = 12 * 1024 * 1024;

fn decode_b64(name: &str, value: &str) -> Result<Vec<u8>, FragmentError> {
    if value.len() > MAX_FRAGMENT_CHARS {
        return Err(FragmentError(format!("the {name} value is {} characters long; that is too long", value.len())));
    }
    // Some mailers and chat apps turn a trailing `=` into `%3D`.
    let value = value.replace("%3D", "=").replace("%3d", "=");
    URL_SAFE_LENIENT
        .decode(value.trim())
        .map_err(|e| FragmentError(format!("the {name} value is not valid base64url ({e})")))
}

/// The scenario loader of links and of a lab page's messages (`state::host`): the engine's
/// format, its limits ([`MAX_SCENARIO_BYTES`]) and its messages; `from` says where it came from.
pub fn scenario_from_json(bytes: &[u8], from: &str) -> Result<Scenario, FragmentError> {
    Scenario::from_json_bytes(bytes).map_err(|e| FragmentError(format!("the scenario in {from} is not valid: {e}")))
}

/// A `step=` value: a whole number or `end`.
pub fn parse_step(value: &str) -> Result<StepParam, FragmentError> {
    match value {
        "end" => Ok(StepParam::End),
        v => v.parse::<usize>().map(StepParam::At).map_err(|_| {
            FragmentError(format!(
                "step must be a whole number or \"end\", not \"{}\"",
                v.chars().take(20).collect::<String>()
            ))
        }),
    }
}

/// A scenario from a base64url raw-DEFLATE value (parameter `name`).
fn decode_z(name: &str, value: &str) -> Result<Scenario, FragmentError> {
    let bytes = decode_b64(name, value)?;
    let json = miniz_oxide::inflate::decompress_to_vec_with_limit(&bytes, MAX_SCENARIO_BYTES).map_err(|e| {
        FragmentError(if e.status == miniz_oxide::inflate::TINFLStatus::HasMoreOutput {
            // A decompression bomb, or just too big: stopped at the loader's limit.
            format!("the {name} value unpacks to more than {MAX_SCENARIO_BYTES} bytes, the limit of a scenario")
        } else {
            format!("the {name} value is not valid raw DEFLATE data ({e})")
        })
    })?;
    scenario_from_json(&json, "the link")
}

/// Scenarios of more JSON than this are compressed at DEFLATE level 6, not 9: on a
/// 100,000-element stream (4.8 MB of JSON) level 9 took most of a second of the page's thread
/// for a link a few per cent shorter.
const FAST_DEFLATE_ABOVE: usize = 256 * 1024;

/// Above this, level 2: on that stream level 6 took 207 ms (natively) for 770,294 bytes, level 2
/// 34 ms for 909,916 (the autosave writes it after every commit, on the page's thread).
const FASTEST_DEFLATE_ABOVE: usize = 1024 * 1024;

thread_local! {
    /// The `z` text of the last scenarios the page encoded (A's and compare mode's B), by identity:
    /// the autosave's fragment is made again at every step of the playhead, and the scenario has
    /// not changed. Held weakly, so no copy of a scenario is kept (two deep copies were ≈ 7 MB and a
    /// 14 ms copy per commit at 100,000 elements): while a `Weak` points to it, a live scenario cannot
    /// be changed in place (`Rc::make_mut` moves it to a new allocation first, and `Rc::get_mut`
    /// refuses), so a live one at the same address is the scenario the text was made of.
    static Z_MEMO: std::cell::RefCell<Vec<(Weak<Scenario>, Rc<str>)>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// The `z` text of a scenario the page holds (memoised by identity, [`Z_MEMO`]).
fn z_text(scenario: &Rc<Scenario>) -> Rc<str> {
    if let Some(z) = remembered_z(scenario) {
        return z;
    }
    let z: Rc<str> = z_text_of(scenario).into();
    remember_z(scenario, z.clone());
    z
}

/// The text [`Z_MEMO`] remembers for `scenario`, if it does.
fn remembered_z(scenario: &Rc<Scenario>) -> Option<Rc<str>> {
    Z_MEMO.with(|m| {
        let m = m.borrow();
        m.iter()
            .find(|(w, _)| w.strong_count() > 0 && std::ptr::eq(w.as_ptr(), Rc::as_ptr(scenario)))
            .map(|(_, z)| z.clone())
    })
}

/// Keeps `z` as the text of `scenario` (the two most recent, [`Z_MEMO`]).
fn remember_z(scenario: &Rc<Scenario>, z: Rc<str>) {
    Z_MEMO.with(|m| {
        let mut m = m.borrow_mut();
        m.retain(|(w, _)| w.strong_count() > 0);
        m.insert(0, (Rc::downgrade(scenario), z));
        m.truncate(2);
    });
}

/// The `z` text: the scenario's JSON, raw DEFLATE, base64url.
fn z_text_of(scenario: &Scenario) -> String {
    let json = scenario.to_json_string();
    URL_SAFE_LENIENT.encode(miniz_oxide::deflate::compress_to_vec(json.as_bytes(), deflate_level(json.len())))
}

/// The DEFLATE level for `len` bytes of JSON.
fn deflate_level(len: usize) -> u8 {
    match len {
        n if n > FASTEST_DEFLATE_ABOVE => 2,
        n if n > FAST_DEFLATE_ABOVE => 6,
        _ => 9,
    }
}

/// Scenarios whose JSON is guessed longer than this have their `z` text made by a [`ZJob`], in
/// slices, each a task of its own after the change's, rather than at once in it: at 100,000
/// elements (4.8 MB of JSON) writing and compressing it was one task of 55-65 ms in the page after
/// every commit (a drop), for the autosave; at 2,000 (≈ 90 KB, level 9) ≈ 9 ms of the drop's own
/// task, and the address bar's write after it 4 ms more (a CPU profile of the drop after a rest,
/// whose task was then 40-70 ms with the CPU slowed 1.5×). Below, the text is made at once (a
/// course's scenarios: their link is there as soon as the change is).
pub const SLICED_Z_ABOVE: usize = 32 * 1024;

/// JSON compressed per [`ZJob::advance`]: ≈ 3 ms of level-2 DEFLATE in the page.
pub const Z_SLICE_BYTES: usize = 512 * 1024;

/// Whether `scenario`'s `z` text can be had without a long task: it is remembered, or short.
pub fn z_at_hand(scenario: &Rc<Scenario>) -> bool {
    z_known(scenario) || scenario.json_len_guess() <= SLICED_Z_ABOVE
}

fn z_known(scenario: &Rc<Scenario>) -> bool {
    remembered_z(scenario).is_some()
}

/// What a [`ZJob`] slice left.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ZProgress {
    /// More slices to go.
    Pending,
    /// The text, remembered for the scenario (the next [`encode_z`] of it takes no time).
    Done(Rc<str>),
    /// The scenario is gone (a newer one replaced it): nothing was remembered.
    Gone,
}

/// The `z` text of a large scenario made in slices, each a task of its own: the JSON first, then
/// [`Z_SLICE_BYTES`] of it compressed per slice with one streaming compressor, so the text is
/// the same as [`encode_z`]'s at once. The job holds the scenario weakly: a scenario replaced
/// before its text is made is not kept alive for it.
pub struct ZJob {
    scenario: Weak<Scenario>,
    json: Option<Vec<u8>>,
    at: usize,
    compressor: Option<Box<miniz_oxide::deflate::core::CompressorOxide>>,
    out: Vec<u8>,
    done: Option<Rc<str>>,
}

impl ZJob {
    pub fn new(scenario: &Rc<Scenario>) -> Self {
        ZJob { scenario: Rc::downgrade(scenario), json: None, at: 0, compressor: None, out: Vec::new(), done: None }
    }

    /// Whether this job makes the text of `scenario`.
    pub fn is_for(&self, scenario: &Rc<Scenario>) -> bool {
        std::ptr::eq(self.scenario.as_ptr(), Rc::as_ptr(scenario)) && self.scenario.strong_count() > 0
    }

    /// One slice: the JSON written (the first), or `slice` bytes of it compressed; the last
    /// also encodes the text and remembers it.
    pub fn advance(&mut self, slice: usize) -> ZProgress {
        use miniz_oxide::deflate::core::{
            CompressorOxide, TDEFLFlush, TDEFLStatus, compress, create_comp_flags_from_zip_params,
        };
        if let Some(z) = &self.done {
            return ZProgress::Done(z.clone());
        }
        let Some(scenario) = self.scenario.upgrade() else { return ZProgress::Gone };
        let (Some(json), Some(compressor)) = (&self.json, &mut self.compressor) else {
            let json = scenario.to_json_string().into_bytes();
            // Raw DEFLATE (no zlib header) at the level `encode_z` would use, as `compress_to_vec`.
            let flags = create_comp_flags_from_zip_params(deflate_level(json.len()).into(), 0, 0);
            self.compressor = Some(Box::new(CompressorOxide::new(flags)));
            self.out = Vec::with_capacity(json.len() / 4);
            self.json = Some(json);
            return ZProgress::Pending;
        };
        let end = self.at.saturating_add(slice.max(1)).min(json.len());
        let flush = if end == json.len() { TDEFLFlush::Finish } else { TDEFLFlush::None };
        loop {
            if self.out.capacity() - self.out.len() < 64 * 1024 {
                self.out.reserve(self.out.len().max(64 * 1024));
            }
            let pos = self.out.len();
            self.out.resize(self.out.capacity(), 0);
            let (status, read, wrote) = compress(compressor, &json[self.at..end], &mut self.out[pos..], flush);
            self.out.truncate(pos + wrote);
            self.at += read;
            match status {
                TDEFLStatus::Done => break,
                TDEFLStatus::Okay if self.at == end && flush == TDEFLFlush::None => return ZProgress::Pending,
                TDEFLStatus::Okay => {}
                // A bad parameter or a failed write (miniz_oxide's own `compress_to_vec` panics
                // here; it cannot happen with the flags above): no text, and no panic. The fragment
                // then waits for the next commit, or a page left makes the text at once.
                _ => {
                    self.scenario = Weak::new();
                    return ZProgress::Gone;
                }
            }
        }
        let z: Rc<str> = URL_SAFE_LENIENT.encode(std::mem::take(&mut self.out)).into();
        self.finished(&scenario, z)
    }

    fn finished(&mut self, scenario: &Rc<Scenario>, z: Rc<str>) -> ZProgress {
        self.json = None;
        self.compressor = None;
        self.out = Vec::new();
        remember_z(scenario, z.clone());
        self.done = Some(z.clone());
        ZProgress::Done(z)
    }

    /// Every slice left at once.
    #[cfg(test)]
    pub fn finish(&mut self) -> ZProgress {
        loop {
            match self.advance(usize::MAX) {
                ZProgress::Pending => {}
                other => return other,
            }
        }
    }
}

/// Compare mode's parameter (with its `&`): B, without its input while it `follow`s the first's.
pub fn encode_compare(b: &Rc<Scenario>, follow: bool) -> String {
    if follow {
        let config = Scenario { input: Vec::new(), ..(**b).clone() };
        format!("&cmp={}", z_text_of(&config))
    } else {
        format!("&cmp={}", z_text(b))
    }
}

/// Compare mode's second configuration in a hash (`cmp=`), if it names one.
pub fn parse_compare(fragment: &str) -> Result<Option<Scenario>, FragmentError> {
    let fragment = fragment.strip_prefix('#').unwrap_or(fragment);
    match fragment.split('&').find_map(|p| p.strip_prefix("cmp=")) {
        Some(value) => decode_z("cmp", value).map(Some),
        None => Ok(None),
    }
}

/// Decodes a fragment (with or without the leading `#`).
pub fn parse(fragment: &str) -> Result<Fragment, FragmentError> {
    let fragment = fragment.strip_prefix('#').unwrap_or(fragment);
    let mut out = Fragment { scenario: None, step: None };
    for part in fragment.split('&').filter(|p| !p.is_empty()) {
        let (name, value) = part.split_once('=').unwrap_or((part, ""));
        match name {
            "scenario" => {
                let bytes = decode_b64("scenario", value)?;
                out.scenario = Some(scenario_from_json(&bytes, "the link")?);
            }
            "z" => out.scenario = Some(decode_z("z", value)?),
            "step" => out.step = Some(parse_step(value)?),
            // Unknown parameters are ignored so that later versions can add their own.
            _ => {}
        }
    }
    Ok(out)
}

/// The longest fragment the address bar carries a scenario in (characters). A link's scenario
/// grows with its input (≈ 10 characters an element of a real stream: a 100,000-element stream is
/// a 1,027,070-character fragment): past this it is a link no chat or mail app keeps whole, and
/// every step of the playhead rewrote it (`history.replaceState` took ≈ 60 ms a step at 100,000
/// elements). A stream this large is kept by the autosave; the share box says to send the file.
pub const ADDRESS_BAR_MAX: usize = 64 * 1024;

/// `fragment` (an autosave fragment, without `#`) as the address bar shows it when it is longer
/// than [`ADDRESS_BAR_MAX`]: without the scenario (`z`, `scenario`, compare mode's `cmp`, and the
/// preset's name, which without its `z` would open the untouched preset) and with `local=1`, so
/// that a reload opens the autosave and a link copied from the address bar says where its
/// scenario is. The step and every other parameter stay.
pub fn address_bar_form(fragment: &str) -> String {
    let kept = fragment.split('&').filter(|part| {
        let name = part.split_once('=').map_or(*part, |(name, _)| name);
        !part.is_empty() && !matches!(name, "z" | "scenario" | "cmp" | "preset" | "local")
    });
    std::iter::once("local=1").chain(kept).collect::<Vec<_>>().join("&")
}

/// The share-link fragment (without `#`): `z=<base64url raw DEFLATE>&step=<n|end>`.
pub fn encode_z(scenario: &Rc<Scenario>, step: StepParam) -> String {
    format!("z={}&step={}", z_text(scenario), step_text(step))
}

/// The plain form (without `#`): `scenario=<base64url JSON>&step=<n|end>`.
pub fn encode_scenario(scenario: &Scenario, step: StepParam) -> String {
    let json = scenario.to_json_string();
    format!("scenario={}&step={}", URL_SAFE_LENIENT.encode(json.as_bytes()), step_text(step))
}

fn step_text(step: StepParam) -> String {
    match step {
        StepParam::End => "end".into(),
        StepParam::At(n) => n.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const JSON: &str = r#"{"assigner": {"kind": "tumbling", "size": 60000},
        "input": [{"id": 1, "key": "A", "ts": 1000}, {"wm": 59999}]}"#;

    fn scenario() -> Scenario {
        Scenario::from_json_str(JSON).unwrap_or_else(|e| panic!("{e}"))
    }

    /// A fragment too long for the address bar keeps its step and view there, not its scenario;
    /// it names no scenario and no preset, and says `local`.
    #[test]
    fn the_address_bar_form_leaves_the_scenario_out() {
        let s = Rc::new(scenario());
        let full = format!("{}&preset=lab-6-2&cmp=abc&mode=lecture", encode_z(&s, StepParam::At(2)));
        let short = address_bar_form(&full);
        assert_eq!(short, "local=1&step=2&mode=lecture");
        let parsed = parse(&short).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(parsed, Fragment { scenario: None, step: Some(StepParam::At(2)) });
        assert_eq!(address_bar_form(&short), short, "applied twice, the same");
        assert_eq!(address_bar_form("scenario=e30&step=end"), "local=1&step=end");
    }

    /// The three compression levels (by the JSON's size) all round-trip.
    #[test]
    fn large_scenarios_round_trip_at_every_level() {
        for n in [10, 8_000, 24_000] {
            let s = stream(n);
            let size = s.to_json_string().len();
            assert!(n < 24_000 || size > FASTEST_DEFLATE_ABOVE, "{n} elements: {size} bytes of JSON");
            assert!(n != 8_000 || (FAST_DEFLATE_ABOVE..=FASTEST_DEFLATE_ABOVE).contains(&size), "{size}");
            let back = parse(&encode_z(&s, StepParam::End)).unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(back.scenario.as_ref(), Some(&*s), "{n} elements");
        }
    }

    /// A stream of `n` elements over 20 keys, `i`'s timestamp scattered.
    fn stream(n: usize) -> Rc<Scenario> {
        let input: Vec<String> =
            (0..n).map(|i| format!(r#"{{"id": {i}, "key": "k{}", "ts": {}}}"#, i % 20, i * 997 % 1_000_003)).collect();
        let json = format!(r#"{{"assigner": {{"kind": "tumbling", "size": 60000}}, "input": [{}]}}"#, input.join(","));
        Rc::new(Scenario::from_json_str(&json).unwrap_or_else(|e| panic!("{e}")))
    }

    /// A large scenario's text made in slices is the text made at once, whatever the slice (one
    /// byte at a time, a ragged size, all at once), at every DEFLATE level; it is remembered when
    /// done, so the link after it is made at once; a job whose scenario is gone makes nothing.
    #[test]
    fn a_z_text_made_in_slices_is_the_one_made_at_once() {
        for n in [10, 500, 2_000, 24_000] {
            let s = stream(n);
            let whole = z_text_of(&s);
            assert_eq!(z_at_hand(&s), n <= 500, "{n} elements: sliced only above {SLICED_Z_ABOVE} bytes");
            for slice in [1, 4093, Z_SLICE_BYTES, usize::MAX] {
                if slice == 1 && n > 10 {
                    continue;
                }
                Z_MEMO.with(|m| m.borrow_mut().clear());
                let mut job = ZJob::new(&s);
                assert!(job.is_for(&s) && !job.is_for(&stream(3)));
                let mut slices = 0;
                let z = loop {
                    slices += 1;
                    match job.advance(slice) {
                        ZProgress::Pending => assert!(!z_known(&s), "remembered before it is done"),
                        ZProgress::Done(z) => break z,
                        ZProgress::Gone => panic!("the scenario is alive"),
                    }
                };
                assert_eq!(&*z, whole, "{n} elements in slices of {slice}");
                let json = s.to_json_string().len();
                assert_eq!(slices, 1 + json.div_ceil(slice.min(json)), "the JSON, then a slice per {slice} bytes");
                assert!(z_at_hand(&s) && z_known(&s));
                assert!(Rc::ptr_eq(&z, &z_text(&s)), "the link uses the text the job made");
                assert_eq!(job.advance(slice), ZProgress::Done(z.clone()), "done stays done");
                assert_eq!(decode_z("z", &z).as_ref(), Ok(&*s));
            }
        }
        let s = stream(24_000);
        let mut job = ZJob::new(&s);
        assert_eq!(job.advance(Z_SLICE_BYTES), ZProgress::Pending);
        drop(s);
        assert_eq!(job.advance(Z_SLICE_BYTES), ZProgress::Gone, "a replaced scenario's text is not made");
        let s = stream(24_000);
        let mut job = ZJob::new(&s);
        assert_eq!(job.advance(Z_SLICE_BYTES), ZProgress::Pending);
        assert_eq!(job.advance(Z_SLICE_BYTES), ZProgress::Pending);
        assert_eq!(job.finish(), ZProgress::Done(z_text_of(&s).into()), "the rest at once when the page is left");
    }

    /// The link memo is by identity and weak: the same scenario's text is made once; a scenario
    /// changed through `Rc::make_mut` (moved out from under the memo's `Weak`, or copied while
    /// shared) is encoded anew, and the other copy keeps its text.
    #[test]
    fn the_link_memo_follows_the_scenario_not_its_address() {
        let mut s = Rc::new(scenario());
        let a = z_text(&s);
        assert!(Rc::ptr_eq(&a, &z_text(&s)), "the same scenario: the memo's text");
        Rc::make_mut(&mut s).name = "changed".into();
        let b = z_text(&s);
        assert_ne!(a, b);
        assert_eq!(decode_z("z", &b).map(|d| d.name), Ok("changed".to_string()));
        let shared = s.clone();
        Rc::make_mut(&mut s).name = "again".into();
        assert_eq!(z_text(&shared), b);
        assert_eq!(decode_z("z", &z_text(&s)).map(|d| d.name), Ok("again".to_string()));
        // A scenario dropped and another made (perhaps at the same address): encoded anew.
        drop((s, shared));
        let other = Rc::new(Scenario { name: "other".into(), ..scenario() });
        assert_eq!(decode_z("z", &z_text(&other)).map(|d| d.name), Ok("other".to_string()));
    }

    /// Both encodings round-trip, and the step is kept.
    #[test]
    fn round_trips() {
        let s = Rc::new(scenario());
        let z = parse(&encode_z(&s, StepParam::At(2))).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(z.scenario.as_ref(), Some(&*s));
        assert_eq!(z.step, Some(StepParam::At(2)));
        let p = parse(&format!("#{}", encode_scenario(&s, StepParam::End))).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(p.scenario.as_ref(), Some(&*s));
        assert_eq!(p.step, Some(StepParam::End));
    }

    /// `#scenario=` is plain base64url of the JSON text, padded or not.
    #[test]
    fn accepts_plain_base64url_with_or_without_padding() {
        let b64 = base64::engine::general_purpose::URL_SAFE.encode(JSON.as_bytes());
        assert!(parse(&format!("#scenario={b64}&step=end")).is_ok());
        let unpadded = b64.trim_end_matches('=');
        assert!(parse(&format!("scenario={unpadded}")).is_ok());
    }

    /// Bad fragments are errors with a readable reason, never panics.
    #[test]
    fn bad_fragments_are_errors() {
        let e = |f: &str| parse(f).err().map(|e| e.0).unwrap_or_default();
        assert!(e("#scenario=!!!").contains("not valid base64url"));
        assert!(e("#z=AAAA").contains("not valid raw DEFLATE"));
        let not_json = URL_SAFE_LENIENT.encode(b"<script>alert(1)</script>");
        assert!(e(&format!("#scenario={not_json}")).contains("not valid JSON"));
        assert!(e("#step=soon").contains("step must be a whole number"));
        let bad = URL_SAFE_LENIENT.encode(br#"{"assigner": {"kind": "tumbling", "size": 1}, "input": [{"id": 1}]}"#);
        assert!(e(&format!("#scenario={bad}")).contains("input[0].key: is missing"));
        // A decompression bomb stops at the loader's limit.
        let bomb = miniz_oxide::deflate::compress_to_vec(&vec![b' '; MAX_SCENARIO_BYTES + 10], 9);
        assert!(
            e(&format!("#z={}", URL_SAFE_LENIENT.encode(bomb)))
                .contains(&format!("unpacks to more than {MAX_SCENARIO_BYTES} bytes"))
        );
    }

    /// Compare mode's parameter round-trips; following, it leaves the input out.
    #[test]
    fn compare_round_trips() {
        let s = Rc::new(scenario());
        let own = encode_compare(&s, false);
        assert_eq!(parse_compare(&format!("#z=x{own}")).ok(), Some(Some((*s).clone())));
        let follow = parse_compare(&encode_compare(&s, true)[1..]).ok().flatten();
        assert_eq!(follow, Some(Scenario { input: Vec::new(), ..(*s).clone() }));
        assert_eq!(parse_compare("#z=x&step=3").ok(), Some(None));
        assert!(parse_compare("cmp=AAAA").err().is_some_and(|e| e.0.contains("cmp value is not valid raw DEFLATE")));
    }

    /// An empty fragment or unknown parameters name no scenario.
    #[test]
    fn empty_and_unknown() {
        assert_eq!(parse("").ok(), Some(Fragment { scenario: None, step: None }));
        assert_eq!(parse("#foo=bar&step=3").ok(), Some(Fragment { scenario: None, step: Some(StepParam::At(3)) }));
    }
}
