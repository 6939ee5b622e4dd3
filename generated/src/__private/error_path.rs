//! Where a decode failed: the JSON pointer of the member it stopped at, for [`DecodeError`]
//! (`/params/capabilities/roots/listChanged`).
//!
//! The generated decoders note the member name (or array index) that an error passes through
//! on its way out, but only inside [`tracked`], which the diagnosis of a refused message runs;
//! a decode that succeeds never notes anything. Tracking this way instead of wrapping the
//! deserializer (as `serde_path_to_error` does) adds no copy of every type's decoder for the
//! wrapper type: the diagnosis runs the decoders that decoding text already compiled.
//!
//! Runtime: the member helpers of `super::object` note the segments, and generated unions that
//! try their members in turn call [`mark`] and [`forget_since`] (as `__rt::path_mark` and
//! `__rt::forget_since`).
//!
//! [`DecodeError`]: crate::jsonrpc::DecodeError

use std::cell::RefCell;

enum Segment {
    Member(String),
    Index(usize),
}

thread_local! {
    /// The segments noted so far, innermost first; `None` outside [`tracked`].
    static PATH: RefCell<Option<Vec<Segment>>> = const { RefCell::new(None) };
}

/// Runs `decode` with path tracking: on error, the error and the JSON pointer (below the value
/// `decode` reads) of the member it stopped at.
pub(crate) fn tracked<T, E>(decode: impl FnOnce() -> Result<T, E>) -> Result<T, (E, String)> {
    let outer = start();
    let result = decode();
    let pointer = stop(outer);
    result.map_err(|error| (error, pointer))
}

/// Starts tracking; returns the tracking it interrupts (none but in a nested decode).
fn start() -> Option<Vec<Segment>> {
    PATH.with(|path| path.borrow_mut().replace(Vec::new()))
}

/// Stops tracking, restoring `outer`: the pointer of what was noted.
fn stop(outer: Option<Vec<Segment>>) -> String {
    let noted = PATH.with(|path| std::mem::replace(&mut *path.borrow_mut(), outer));
    let mut pointer = String::new();
    for segment in noted.unwrap_or_default().iter().rev() {
        match segment {
            Segment::Member(name) => {
                crate::json_pointer::push(&mut pointer, name);
            }
            Segment::Index(index) => pointer.push_str(&format!("/{index}")),
        }
    }
    pointer
}

fn note(segment: impl FnOnce() -> Segment) {
    PATH.with(|path| {
        if let Some(path) = path.borrow_mut().as_mut() {
            path.push(segment());
        }
    });
}

/// Notes that an error leaves the value of member `name`.
#[cold]
pub fn note_member(name: &str) {
    note(|| Segment::Member(name.to_owned()));
}

/// Notes that an error leaves the item at `index` of an array.
#[cold]
pub fn note_index(index: usize) {
    note(|| Segment::Index(index));
}

/// The number of segments noted so far, for [`forget_since`].
pub fn mark() -> usize {
    PATH.with(|path| path.borrow().as_ref().map_or(0, Vec::len))
}

/// Forgets what a failed attempt noted (a union trying its members in turn): the path of the
/// error a union reports ends at the union.
#[cold]
pub fn forget_since(mark: usize) {
    PATH.with(|path| {
        if let Some(path) = path.borrow_mut().as_mut() {
            path.truncate(mark);
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn segments_noted_on_the_way_out_read_outermost_first() {
        let (error, pointer) = tracked(|| {
            note_index(2);
            note_member("a/b~c");
            note_member("outer");
            Err::<(), _>("refused")
        })
        .unwrap_err();
        assert_eq!(error, "refused");
        assert_eq!(pointer, "/outer/a~1b~0c/2");
    }

    #[test]
    fn nothing_is_noted_outside_tracking_and_failed_attempts_are_forgotten() {
        note_member("ignored");
        let (_, pointer) = tracked(|| {
            let mark = mark();
            note_member("tried");
            forget_since(mark);
            note_member("kept");
            Err::<(), _>(())
        })
        .unwrap_err();
        assert_eq!(pointer, "/kept");
        assert_eq!(mark(), 0);
    }
}
