//! The `extern "C"` declarations a Rust program (a Tauri app's backend, say) uses to call
//! libsesame, with a safe wrapper for the ID token. Link with `-l sesame` (in a Cargo build
//! script: `println!("cargo:rustc-link-lib=sesame");`, or the pkg-config crate with "sesame").
//! run-tests.sh compiles this file with rustc and runs it against a real daemon.
use std::ffi::CStr;
use std::os::raw::{c_char, c_int, c_longlong, c_void};

/// `sesame_error` of sesame.h, field for field.
#[repr(C)]
pub struct SesameError {
    pub code: c_int,
    pub reason: c_int,
    pub reason_text: [c_char; 64],
    pub message: [c_char; 512],
    pub retry_after_ms: c_longlong,
    pub data: [c_char; 4096],
}

/// An opaque `sesame_t`.
#[repr(C)]
pub struct Sesame {
    _private: [u8; 0],
}

#[link(name = "sesame")]
extern "C" {
    pub fn sesame_connect(socket_path: *const c_char, out: *mut *mut Sesame, error: *mut SesameError) -> c_int;
    pub fn sesame_close(sesame: *mut Sesame);
    pub fn sesame_get_id_token(sesame: *mut Sesame, min_validity: c_int, error: *mut SesameError) -> *mut c_char;
    pub fn sesame_call(sesame: *mut Sesame, method: *const c_char, params_json: *const c_char,
                       result_json: *mut *mut c_char, error: *mut SesameError) -> c_int;
}

extern "C" {
    fn free(pointer: *mut c_void);
}

/// What a failed call says: the protocol's code, its reason and a sentence for people.
#[derive(Debug)]
pub struct Error {
    pub code: i32,
    pub reason: String,
    pub message: String,
}

fn text(field: &[c_char]) -> String {
    unsafe { CStr::from_ptr(field.as_ptr()) }.to_string_lossy().into_owned()
}

/// A current ID token of this machine's session (`None` for the handle: connect, ask, close).
pub fn id_token(min_validity_seconds: i32) -> Result<String, Error> {
    let mut error: SesameError = unsafe { std::mem::zeroed() };
    let token = unsafe { sesame_get_id_token(std::ptr::null_mut(), min_validity_seconds, &mut error) };
    if token.is_null() {
        return Err(Error { code: error.code, reason: text(&error.reason_text), message: text(&error.message) });
    }
    let value = unsafe { CStr::from_ptr(token) }.to_string_lossy().into_owned();
    unsafe { free(token as *mut c_void) };
    Ok(value)
}

fn main() {
    match id_token(0) {
        Ok(token) => println!("{}", token),
        Err(error) => {
            eprintln!("no token ({}): {}", error.reason, error.message);
            std::process::exit(1);
        }
    }
}
