//! What is emitted when a stage recorded an error (thiserror's `impl/src/fallback.rs`): the
//! user's fn as written (minus parameter attributes), the `compile_error!`s, and stubs of the
//! items other code names — the unit struct and its `impl Tool` — so that
//! `.tool::<add_habit>()` elsewhere does not add "cannot find type" to the real error, and
//! rust-analyzer keeps understanding the code.

use proc_macro2::TokenStream;
use quote::quote;
use syn::FnArg;

use crate::ast::ToolFn;
use crate::attr::ToolAttr;
use crate::{expand, valid};

pub(crate) fn expand(
    attr: &ToolAttr,
    tool: &ToolFn,
    krate: &syn::Path,
    errors: TokenStream,
) -> TokenStream {
    let item = &tool.item;
    // A method is inside an `impl`, where a struct cannot go; its error says so already.
    if item
        .sig
        .inputs
        .iter()
        .any(|input| matches!(input, FnArg::Receiver(_)))
    {
        return quote!(#errors #item);
    }
    let fn_ident = &item.sig.ident;
    let (name, _) = valid::tool_name(attr, tool);
    let stub = expand::tool_struct(
        item,
        &name,
        quote! {
            #[automatically_derived]
            #[allow(non_local_definitions)]
            impl #krate::__private::Tool for #fn_ident {
                const NAME: &'static str = #name;

                fn definition() -> ::core::result::Result<
                    #krate::__private::ToolDefinition,
                    #krate::__private::DefinitionError,
                > {
                    #krate::__private::failed_expansion()
                }
            }
        },
    );
    quote! {
        #errors
        #item
        #stub
    }
}
