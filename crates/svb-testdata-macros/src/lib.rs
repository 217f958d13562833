//! `#[data_test]`: a test that needs the shared conformance data (re-exported as
//! `svb_testdata::data_test`; see there).

#![forbid(unsafe_code)]

use proc_macro::TokenStream;
use quote::quote;
use syn::{parse_macro_input, spanned::Spanned, ItemFn};

/// Marks a test that needs a folder of test files: `fn name(data: &Path)` or
/// `fn name(data: &Path, tmp: &TempDir)`. `#[data_test]` gives the shared conformance data
/// (`svb_testdata::data_dir`), `#[data_test(slow5_repos)]` slow5lib's and slow5tools' test
/// folders (`svb_testdata::slow5_repos`). The test is ignored unless run with
/// `--include-ignored` (the reason says what it needs) and gets the folder and, with a second
/// parameter, a fresh temporary directory named after the test; where the folder is missing
/// it returns after one "skipped" line (a panic under `CI=true`).
#[proc_macro_attribute]
pub fn data_test(args: TokenStream, item: TokenStream) -> TokenStream {
    let args = proc_macro2::TokenStream::from(args);
    let (folder, reason) = match args.to_string().as_str() {
        "" => (
            quote!(::svb_testdata::data_dir()),
            "needs the shared test data (../shared/data or SVB_TEST_DATA); run with --include-ignored",
        ),
        "slow5_repos" => (
            quote!(::svb_testdata::slow5_repos()),
            "needs slow5lib's and slow5tools' test data (SVB_SLOW5_REPOS); run with --include-ignored",
        ),
        _ => {
            return syn::Error::new(
                args.span(),
                "#[data_test] takes nothing (the shared data) or `slow5_repos`",
            )
            .to_compile_error()
            .into()
        }
    };
    let test = parse_macro_input!(item as ItemFn);
    let attrs = &test.attrs;
    let name = &test.sig.ident;
    let mut inner = test.clone();
    inner.attrs.clear();
    let call = match test.sig.inputs.len() {
        1 => quote! {
            let Some(folder) = #folder else { return };
            #name(&folder)
        },
        2 => quote! {
            let Some(folder) = #folder else { return };
            let tmp = ::svb_testdata::TempDir::new(stringify!(#name));
            #name(&folder, &tmp)
        },
        _ => return syn::Error::new(
            test.sig.inputs.span(),
            "#[data_test] takes `fn name(data: &Path)` or `fn name(data: &Path, tmp: &TempDir)`",
        )
        .to_compile_error()
        .into(),
    };
    if !matches!(test.sig.output, syn::ReturnType::Default) {
        return syn::Error::new(test.sig.output.span(), "a #[data_test] returns nothing")
            .to_compile_error()
            .into();
    }
    quote! {
        #[test]
        #[ignore = #reason]
        #(#attrs)*
        fn #name() {
            #inner
            #call
        }
    }
    .into()
}
