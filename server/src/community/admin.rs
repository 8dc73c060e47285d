//! The operator's command line: `server admin grant NAME [--role moderator|administrator]` gives an existing
//! account a role (the first administrator is made so; there is no default account and no default password), and
//! `server admin revoke NAME` makes it a player again.

use store::Store;

use super::Role;

/// Gives the account `name` (any case) the role; answers its name as stored, or says why it could not.
pub async fn grant(store: &dyn Store, name: &str, role: Role) -> Result<String, String> {
    let user = store
        .user_by_name(name)
        .await
        .map_err(|e| format!("could not read the account: {e}"))?
        .ok_or_else(|| format!("no account named {name}"))?;
    let tables = super::tables(store).map_err(|e| e.to_string())?;
    if tables
        .closed_at(user.id)
        .await
        .map_err(|e| e.to_string())?
        .is_some()
    {
        return Err(format!("the account {name} is closed"));
    }
    tables
        .set_role(user.id, role.as_str())
        .await
        .map_err(|e| format!("could not set the role: {e}"))?;
    Ok(user.name)
}
